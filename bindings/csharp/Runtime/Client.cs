using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// The SDK's client: one player's connection to the platform. Methods are named as in the C++ API
    /// (include/platformpp/client.hpp) and keep its contract:
    /// <list type="bullet">
    /// <item>Every callback runs inside <see cref="RunCallbacks"/>, on the thread that calls it (the game thread),
    /// never on a thread of the library and never on the GC's finalizer thread. The one exception is the audio
    /// callbacks of <see cref="StartCallWithAudioCallbacks"/>, which run on the voice thread.</item>
    /// <item>Every operation ends exactly once: success, error, timeout, Aborted or ClientDestroyed.</item>
    /// <item><see cref="Dispose"/> completes what is pending with ClientDestroyed before it returns, and may be
    /// called from inside a callback.</item>
    /// <item>An exception thrown by a callback does not reach native code: the first one is thrown again when
    /// the outermost RunCallbacks (or Dispose) returns; the callbacks queued after it still run.</item>
    /// </list>
    /// Dispose every Client. One that is only dropped is destroyed by the GC's finalizer when it holds no
    /// callback of yours (then destroying it calls nothing); while the library holds a callback of it, the
    /// callback keeps it alive (see Interop/ClientHandle.cs).
    /// </summary>
    public sealed unsafe partial class Client : IDisposable
    {
        /// <summary>Connection status of the realtime connection.</summary>
        public enum Status
        {
            Disconnected = 0,
            Connecting = 1,
            Connected = 2,
            Ready = 3,
            Reconnecting = 4,
            Disconnecting = 5,
            HttpWait = 6,
        }

        /// <summary>Why the realtime connection ended, when it was not asked to.</summary>
        public enum Error
        {
            None = 0,
            ConnectionFailed = 1,
            UnexpectedClose = 2,
            ConnectionCanceled = 3,
        }

        /// <summary>The client's threads, for SetThreadPriority.</summary>
        public enum Thread
        {
            Client = 0,
            Voice = 1,
            Network = 2,
        }

        readonly ClientHandle handle;

        /// <summary>A client of the platform itself, with every default.</summary>
        public Client() : this(null)
        {
        }

        public Client(ClientOptions options)
        {
            IntPtr client;
            if (options == null)
            {
                client = Native.platformpp_client_create(null);
            }
            else
            {
                byte[] apiBase = Utf8.Encode(options.ApiBase), caFile = Utf8.Encode(options.CaFile);
                byte[] webBase = Utf8.Encode(options.WebBase), ipcName = Utf8.Encode(options.IpcName);
                byte[] ipcDirectory = Utf8.Encode(options.IpcDirectory);
                fixed (byte* pApiBase = apiBase)
                fixed (byte* pCaFile = caFile)
                fixed (byte* pWebBase = webBase)
                fixed (byte* pIpcName = ipcName)
                fixed (byte* pIpcDirectory = ipcDirectory)
                {
                    platformpp_client_options o;
                    Native.platformpp_client_options_init(&o);
                    o.api_base = Str(pApiBase, apiBase);
                    o.ca_file = Str(pCaFile, caFile);
                    o.use_system_certificates = options.UseSystemCertificates ? 1 : 0;
                    o.web_base = Str(pWebBase, webBase);
                    o.authorize_timeout_ms = options.AuthorizeTimeoutMilliseconds;
                    o.ipc_name = Str(pIpcName, ipcName);
                    o.ipc_directory = Str(pIpcDirectory, ipcDirectory);
                    o.ipc_enabled = options.IpcEnabled ? 1 : 0;
                    o.channel_obfuscation_opt_in = options.ChannelObfuscationOptIn ? 1 : 0;
                    client = Native.platformpp_client_create(&o);
                }
            }
            if (client == IntPtr.Zero) throw new InvalidOperationException("platformpp_client_create failed");
            handle = new ClientHandle(client);
        }

        /// <summary>
        /// Destroys the native client: pending operations complete with ClientDestroyed (their callbacks run
        /// here, on this thread), nothing is called afterwards. Safe inside a callback and more than once. Calls
        /// handed out before stay valid objects; only Dispose may be called on them afterwards.
        /// </summary>
        public void Dispose()
        {
            if (handle.IsClosed) return;
            CallbackErrors.Enter();
            try
            {
                handle.Destroy();
            }
            finally
            {
                CallbackErrors.Exit();
            }
        }

        /// <summary>True once Dispose ran.</summary>
        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        internal ClientHandle Handle
        {
            get { return handle; }
        }

        /// <summary>The native client; throws once disposed.</summary>
        internal IntPtr Ptr
        {
            get
            {
                if (handle.IsClosed) throw new ObjectDisposedException("Platformpp.Client");
                return handle.DangerousGetHandle();
            }
        }

        /// <summary>
        /// Runs every callback queued so far, on this thread. Never blocks. Call it once a frame. Rethrows the
        /// first exception a callback threw (the others queued still ran).
        /// </summary>
        public void RunCallbacks()
        {
            IntPtr client = Ptr;
            CallbackErrors.Enter();
            try
            {
                Native.platformpp_client_run_callbacks(client);
            }
            finally
            {
                CallbackErrors.Exit();
            }
            var audioError = System.Threading.Interlocked.Exchange(ref handle.AudioException, null);
            if (audioError != null)
                throw new InvalidOperationException("an audio callback threw on the voice thread", audioError);
        }

        /// <summary>
        /// Blocks until a callback is ready for RunCallbacks or the timeout passes; true when one is ready. For
        /// bots, tools and tests with nothing else to do; a game calls RunCallbacks once a frame instead.
        /// </summary>
        public bool WaitForCallbacks(int timeoutMilliseconds)
        {
            return Native.platformpp_client_wait_for_callbacks(Ptr, timeoutMilliseconds) != 0;
        }

        public void SetApplicationId(ulong applicationId)
        {
            Native.platformpp_client_set_application_id(Ptr, applicationId);
        }

        public ulong GetApplicationId()
        {
            return Native.platformpp_client_get_application_id(Ptr);
        }

        /// <summary>Timeout of one HTTP exchange in milliseconds (default 30000); values below 1 are refused.</summary>
        public void SetHttpRequestTimeout(int httpTimeoutInMilliseconds)
        {
            Native.platformpp_client_set_http_request_timeout(Ptr, httpTimeoutInMilliseconds);
        }

        public int GetHttpRequestTimeout()
        {
            return Native.platformpp_client_get_http_request_timeout(Ptr);
        }

        /// <summary>Adds a log sink: messages at minSeverity and above, inside RunCallbacks.</summary>
        public void AddLogCallback(Action<string, LoggingSeverity> callback, LoggingSeverity minSeverity)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_add_log_callback(client, Fn(callback, Trampolines.LogFn),
                                                      (platformpp_logging_severity)minSeverity, Box(callback),
                                                      Free(callback));
        }

        /// <summary>Also writes messages to a file in path (created if missing); "" stops. False on failure.</summary>
        public bool SetLogDir(string path, LoggingSeverity minSeverity)
        {
            IntPtr client = Ptr;
            byte[] bytes = Utf8.Encode(path ?? "");
            fixed (byte* p = bytes)
                return Native.platformpp_client_set_log_dir(client, p, Utf8.Size(bytes),
                                                            (platformpp_logging_severity)minSeverity) != 0;
        }

        /// <summary>GET /users/@me with the given token: the id and username of the token's user.</summary>
        public void FetchCurrentUser(AuthorizationTokenType tokenType, string token,
                                     Action<ClientResult, ulong, string> callback)
        {
            IntPtr client = Ptr;
            byte[] bytes = Utf8.Encode(token ?? "");
            fixed (byte* p = bytes)
                Native.platformpp_client_fetch_current_user(client, (platformpp_authorization_token_type)tokenType, p,
                                                            Utf8.Size(bytes),
                                                            Fn(callback, Trampolines.FetchCurrentUserFn),
                                                            Box(callback), Free(callback));
        }

        /// <summary>
        /// Opens the realtime connection with the token of UpdateToken (HttpWait, Connecting, Connected, Ready)
        /// and keeps it up until Disconnect.
        /// </summary>
        public void Connect()
        {
            Native.platformpp_client_connect(Ptr);
        }

        public void Disconnect()
        {
            Native.platformpp_client_disconnect(Ptr);
        }

        public Status GetStatus()
        {
            return (Status)Native.platformpp_client_get_status(Ptr);
        }

        /// <summary>Each status change, in order; error and errorDetail explain a Disconnected not asked for.</summary>
        public void SetStatusChangedCallback(Action<Status, Error, int> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_status_changed_callback(client, Fn(callback, Trampolines.StatusChangedFn),
                                                                 Box(callback), Free(callback));
        }

        public static int GetVersionMajor()
        {
            int major, minor, patch;
            Native.platformpp_version(&major, &minor, &patch);
            return major;
        }

        public static int GetVersionMinor()
        {
            int major, minor, patch;
            Native.platformpp_version(&major, &minor, &patch);
            return minor;
        }

        public static int GetVersionPatch()
        {
            int major, minor, patch;
            Native.platformpp_version(&major, &minor, &patch);
            return patch;
        }

        /// <summary>"major.minor.patch" of the native library.</summary>
        public static string GetVersionString()
        {
            return Utf8.DecodeTerminated(Native.platformpp_version_string());
        }

        /// <summary>The enum's name (e.g. "Ready"), "Unknown" outside it.</summary>
        public static string StatusToString(Status status)
        {
            return Enum.IsDefined(typeof(Status), status) ? status.ToString() : "Unknown";
        }

        public static string ErrorToString(Error error)
        {
            return Enum.IsDefined(typeof(Error), error) ? error.ToString() : "Unknown";
        }

        public static string ThreadToString(Thread thread)
        {
            return Enum.IsDefined(typeof(Thread), thread) ? thread.ToString() : "Unknown";
        }

        // --- helpers for the partial files -------------------------------------------------------------------

        /// <summary>A string field of an option struct: pointer and size of an array from Utf8.Encode.</summary>
        internal static platformpp_string Str(byte* pinned, byte[] encoded)
        {
            platformpp_string s;
            s.ptr = pinned;
            s.size = Utf8.Size(encoded);
            return s;
        }

        /// <summary>The trampoline for a callback, or NULL when there is no callback.</summary>
        internal static T Fn<T>(object callback, T trampoline) where T : class
        {
            return callback == null ? null : trampoline;
        }

        /// <summary>user_data for a callback (NULL for none). Evaluate it last: the library takes it over.</summary>
        internal IntPtr Box(object callback)
        {
            return callback == null ? IntPtr.Zero : UserData.Alloc(handle, callback);
        }

        internal static platformpp_user_data_free_fn Free(object callback)
        {
            return callback == null ? null : UserData.FreeFn;
        }

        internal static List<ulong> Ids(ulong* ids, UIntPtr count)
        {
            var list = new List<ulong>();
            for (ulong i = 0; i < count.ToUInt64(); i++) list.Add(ids[i]);
            return list;
        }
    }
}
