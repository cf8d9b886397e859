using System;
using System.Runtime.InteropServices;
using AOT;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// One interaction the platform POSTed to the application's interactions endpoint URL, once verified: a managed
    /// copy (nothing native is kept). What the properties leave out (options, values, resolved objects) is in Json.
    /// </summary>
    public sealed unsafe class Interaction
    {
        /// <summary>What an interaction is.</summary>
        public enum InteractionType
        {
            /// <summary>The platform checking the URL: answer Interactions.PongBody.</summary>
            Ping = 1,
            /// <summary>A command was invoked.</summary>
            ApplicationCommand = 2,
            /// <summary>A button was clicked or a select chosen.</summary>
            MessageComponent = 3,
            /// <summary>An option being typed asks for suggestions.</summary>
            Autocomplete = 4,
            /// <summary>A modal was submitted.</summary>
            ModalSubmit = 5,
        }

        /// <summary>What it is.</summary>
        public InteractionType Type { get; private set; }
        /// <summary>Its id (the callback route's).</summary>
        public ulong Id { get; private set; }
        /// <summary>The application it is for.</summary>
        public ulong ApplicationId { get; private set; }
        /// <summary>What answers it: 3 seconds for the initial response, 15 minutes in all. A secret: never log it.</summary>
        public string Token { get; private set; }
        /// <summary>The guild it happened in; 0 in a DM.</summary>
        public ulong GuildId { get; private set; }
        /// <summary>The channel it happened in.</summary>
        public ulong ChannelId { get; private set; }
        /// <summary>The user who triggered it; 0 for a PING.</summary>
        public ulong UserId { get; private set; }
        /// <summary>The user's language, e.g. "en-US".</summary>
        public string Locale { get; private set; }
        /// <summary>A command's or an autocomplete's command name; "" otherwise.</summary>
        public string CommandName { get; private set; }
        /// <summary>A component's or a modal's custom id; "" otherwise.</summary>
        public string CustomId { get; private set; }
        /// <summary>The whole interaction as JSON.</summary>
        public string Json { get; private set; }

        /// <summary>Copies a platformpp_interaction.</summary>
        internal static Interaction FromNative(IntPtr i)
        {
            UIntPtr size;
            var copy = new Interaction();
            copy.Type = (InteractionType)Native.platformpp_interaction_get_type(i);
            copy.Id = Native.platformpp_interaction_id(i);
            copy.ApplicationId = Native.platformpp_interaction_application_id(i);
            copy.Token = Utf8.DecodeOrEmpty(Native.platformpp_interaction_token(i, &size), size);
            copy.GuildId = Native.platformpp_interaction_guild_id(i);
            copy.ChannelId = Native.platformpp_interaction_channel_id(i);
            copy.UserId = Native.platformpp_interaction_user_id(i);
            copy.Locale = Utf8.DecodeOrEmpty(Native.platformpp_interaction_locale(i, &size), size);
            copy.CommandName = Utf8.DecodeOrEmpty(Native.platformpp_interaction_command_name(i, &size), size);
            copy.CustomId = Utf8.DecodeOrEmpty(Native.platformpp_interaction_custom_id(i, &size), size);
            copy.Json = Utf8.DecodeOrEmpty(Native.platformpp_interaction_json(i, &size), size);
            return copy;
        }
    }

    /// <summary>
    /// Signed interactions, for a game server with an HTTP stack of its own: check each request with Verify, then
    /// answer a PING with PongBody and an interaction with its interaction response (JSON) within 3 seconds.
    /// </summary>
    public static unsafe class Interactions
    {
        /// <summary>The body that answers a PING (status 200, Content-Type application/json).</summary>
        public const string PongBody = "{\"type\":1}";

        /// <summary>What to answer (200, 401 refused, 400 not an interaction) and, on 200, the interaction.</summary>
        public struct Verification
        {
            /// <summary>The HTTP status to answer with.</summary>
            public int Status;
            /// <summary>The interaction on 200 (a PING included); null otherwise.</summary>
            public Interaction Interaction;
        }

        /// <summary>
        /// Checks the Ed25519 signature (X-Signature-Ed25519) over the timestamp header (X-Signature-Timestamp)
        /// and the raw body with the application's public key (64 hex digits), refuses a timestamp further than
        /// maxAgeSeconds (0: 300) from now (nowUnixSeconds, 0: the system clock), then reads the interaction.
        /// </summary>
        public static Verification Verify(string publicKeyHex, string signatureHex, string timestamp, byte[] body,
                                          long nowUnixSeconds = 0, int maxAgeSeconds = 0)
        {
            byte[] key = Utf8.Encode(publicKeyHex ?? "");
            byte[] signature = Utf8.Encode(signatureHex ?? "");
            byte[] time = Utf8.Encode(timestamp ?? "");
            byte[] raw = body ?? new byte[0];
            IntPtr i = IntPtr.Zero;
            var verdict = new Verification();
            fixed (byte* k = key)
            fixed (byte* s = signature)
            fixed (byte* t = time)
            fixed (byte* b = raw)
            {
                verdict.Status = Native.platformpp_interaction_verify(k, Utf8.Size(key), s, Utf8.Size(signature), t,
                                                                      Utf8.Size(time), b, new UIntPtr((uint)raw.Length),
                                                                      nowUnixSeconds, maxAgeSeconds, &i);
            }
            if (i == IntPtr.Zero) return verdict;
            try
            {
                verdict.Interaction = Interaction.FromNative(i);
            }
            finally
            {
                Native.platformpp_interaction_destroy(i);
            }
            return verdict;
        }
    }

    /// <summary>Message flags an answer may carry (interaction responses).</summary>
    [Flags]
    public enum MessageFlags : ulong
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>No embeds for the message's links.</summary>
        SuppressEmbeds = 1UL << 2,
        /// <summary>Only the user who triggered the interaction sees it.</summary>
        Ephemeral = 1UL << 6,
        /// <summary>No push or desktop notification.</summary>
        SuppressNotifications = 1UL << 12,
        /// <summary>Made of components alone (Text Display, Container, ...): no content.</summary>
        IsComponentsV2 = 1UL << 15,
    }

    /// <summary>Component JSON the answers take (components are JSON arrays of the platform's component objects).</summary>
    public static unsafe class Components
    {
        /// <summary>
        /// The component object of a premium button that sells the SKU <paramref name="skuId"/> (one the application
        /// published): put it in an action row of a message's components, e.g.
        /// "[{\"type\":1,\"components\":[" + Components.PremiumButton(sku) + "]}]".
        /// </summary>
        public static string PremiumButton(ulong skuId)
        {
            ulong length = Native.platformpp_component_premium_button_json(skuId, null, UIntPtr.Zero).ToUInt64();
            if (length == 0) throw new ArgumentException("0 is no SKU", "skuId");
            var buffer = new byte[length + 1];
            fixed (byte* b = buffer)
            {
                Native.platformpp_component_premium_button_json(skuId, b, new UIntPtr((uint)buffer.Length));
            }
            return System.Text.Encoding.UTF8.GetString(buffer, 0, (int)length);
        }
    }

    /// <summary>
    /// The answer to one interaction, given once: the endpoint's callback gets one of its own (Dispose it when done
    /// with it; disposing answers nothing, and the endpoint defers an interaction nobody answered). It may answer
    /// later, from any thread, within the platform's deadlines. Each answer is checked first: a refused one returns
    /// a ValidationError naming the fields (nothing sent, done never runs, the responder still unanswered);
    /// success means it was handed over, and done (when given) runs inside the endpoint's RunCallbacks with the
    /// outcome, or with ClientDestroyed when the endpoint is disposed first.
    /// </summary>
    public sealed unsafe class InteractionResponder : IDisposable
    {
        IntPtr responder;

        internal InteractionResponder(IntPtr owned)
        {
            responder = owned;
            Interaction = Interaction.FromNative(Native.platformpp_interaction_responder_interaction(owned));
        }

        ~InteractionResponder()
        {
            Release();  // answers nothing and calls nothing: safe on the finalizer thread
        }

        /// <summary>The interaction it answers.</summary>
        public Interaction Interaction { get; private set; }

        /// <summary>True once an answer was accepted (the game's, or the endpoint's own deferral).</summary>
        public bool Answered
        {
            get { return Native.platformpp_interaction_responder_answered(responder) != 0; }
        }

        /// <summary>True when the endpoint deferred the interaction itself (a later message edits the original response).</summary>
        public bool Deferred
        {
            get { return Native.platformpp_interaction_responder_deferred(responder) != 0; }
        }

        /// <summary>Answers with a message: content (may be empty with IsComponentsV2), components as JSON (may be null).</summary>
        public ClientResult RespondMessage(string content, string componentsJson = null, MessageFlags flags = MessageFlags.None,
                                           Action<ClientResult> done = null)
        {
            return Message(false, content, componentsJson, flags, done);
        }

        /// <summary>Components: edits the component's message (null or empty keeps a part as it is).</summary>
        public ClientResult UpdateMessage(string content, string componentsJson = null, MessageFlags flags = MessageFlags.None,
                                          Action<ClientResult> done = null)
        {
            return Message(true, content, componentsJson, flags, done);
        }

        /// <summary>"Thinking...": the message comes later, through a RespondMessage of this responder.</summary>
        public ClientResult DeferMessage(bool ephemeral = false, Action<ClientResult> done = null)
        {
            IntPtr data = AnswerCallbacks.Alloc(done);
            return AnswerCallbacks.Take(Native.platformpp_interaction_responder_defer_message(
                Ptr, ephemeral ? 1 : 0, AnswerCallbacks.DoneFn, data, AnswerCallbacks.FreeFn));
        }

        /// <summary>Components: acknowledges now; the message may be edited later.</summary>
        public ClientResult DeferUpdate(Action<ClientResult> done = null)
        {
            IntPtr data = AnswerCallbacks.Alloc(done);
            return AnswerCallbacks.Take(Native.platformpp_interaction_responder_defer_update(
                Ptr, AnswerCallbacks.DoneFn, data, AnswerCallbacks.FreeFn));
        }

        /// <summary>Opens a modal: custom id, title and its components (a JSON array: Labels, Text Displays).</summary>
        public ClientResult Modal(string customId, string title, string componentsJson, Action<ClientResult> done = null)
        {
            byte[] id = Utf8.Encode(customId ?? "");
            byte[] heading = Utf8.Encode(title ?? "");
            byte[] components = Utf8.Encode(componentsJson ?? "");
            IntPtr data = AnswerCallbacks.Alloc(done);
            fixed (byte* i = id)
            fixed (byte* t = heading)
            fixed (byte* c = components)
            {
                return AnswerCallbacks.Take(Native.platformpp_interaction_responder_modal(
                    Ptr, i, Utf8.Size(id), t, Utf8.Size(heading), c, Utf8.Size(components), AnswerCallbacks.DoneFn, data,
                    AnswerCallbacks.FreeFn));
            }
        }

        /// <summary>Autocomplete: the choices, a JSON array of {"name": ..., "value": string or number}.</summary>
        public ClientResult Autocomplete(string choicesJson, Action<ClientResult> done = null)
        {
            byte[] choices = Utf8.Encode(choicesJson ?? "");
            IntPtr data = AnswerCallbacks.Alloc(done);
            fixed (byte* c = choices)
            {
                return AnswerCallbacks.Take(Native.platformpp_interaction_responder_autocomplete(
                    Ptr, c, Utf8.Size(choices), AnswerCallbacks.DoneFn, data, AnswerCallbacks.FreeFn));
            }
        }

        /// <summary>
        /// Launches the application's activity (LAUNCH_ACTIVITY): the answer to the "Launch" entry point command, and
        /// to components and modal submissions.
        /// </summary>
        public ClientResult LaunchActivity(Action<ClientResult> done = null)
        {
            IntPtr data = AnswerCallbacks.Alloc(done);
            return AnswerCallbacks.Take(Native.platformpp_interaction_responder_launch_activity(
                Ptr, AnswerCallbacks.DoneFn, data, AnswerCallbacks.FreeFn));
        }

        /// <summary>Releases the native responder; answers nothing.</summary>
        public void Dispose()
        {
            Release();
            GC.SuppressFinalize(this);
        }

        IntPtr Ptr
        {
            get
            {
                if (responder == IntPtr.Zero) throw new ObjectDisposedException("InteractionResponder");
                return responder;
            }
        }

        ClientResult Message(bool update, string content, string componentsJson, MessageFlags flags,
                             Action<ClientResult> done)
        {
            byte[] text = Utf8.Encode(content ?? "");
            byte[] components = Utf8.Encode(componentsJson ?? "");
            IntPtr data = AnswerCallbacks.Alloc(done);
            fixed (byte* t = text)
            fixed (byte* c = components)
            {
                IntPtr result = update
                    ? Native.platformpp_interaction_responder_update_message(Ptr, t, Utf8.Size(text), c, Utf8.Size(components),
                                                                             (ulong)flags, AnswerCallbacks.DoneFn, data,
                                                                             AnswerCallbacks.FreeFn)
                    : Native.platformpp_interaction_responder_respond_message(Ptr, t, Utf8.Size(text), c, Utf8.Size(components),
                                                                              (ulong)flags, AnswerCallbacks.DoneFn, data,
                                                                              AnswerCallbacks.FreeFn);
                return AnswerCallbacks.Take(result);
            }
        }

        void Release()
        {
            IntPtr owned = responder;
            responder = IntPtr.Zero;
            if (owned != IntPtr.Zero) Native.platformpp_interaction_responder_destroy(owned);
        }
    }

    /// <summary>
    /// The application's interactions endpoint URL, served by the SDK: it checks each request's signature, answers
    /// PINGs itself and hands every other interaction to the callback with its InteractionResponder. The callback,
    /// log callbacks and answers' ends run only inside RunCallbacks or WaitForCallbacks, on the calling thread; pump
    /// them often (the platform waits 3 seconds). An interaction unanswered after deferAfterMs is deferred by the
    /// endpoint. Dispose it: Dispose ends every pending answer (ClientDestroyed) on the calling thread.
    /// </summary>
    public sealed unsafe class InteractionsEndpoint : IDisposable
    {
        IntPtr endpoint;

        /// <summary>
        /// Creates the endpoint (it listens from Start): the application's public key (64 hex digits), the port (0:
        /// any free one, see Port), the address (null: 127.0.0.1) and path (null: "/"), when to defer (0: 2500 ms).
        /// </summary>
        public InteractionsEndpoint(string publicKeyHex, int port = 0, string address = null, string path = null,
                                    int deferAfterMs = 0, bool autoDefer = true, bool deferEphemeral = false)
        {
            byte[] key = Utf8.Encode(publicKeyHex ?? "");
            byte[] where = Utf8.Encode(address ?? "");
            byte[] route = Utf8.Encode(path ?? "");
            platformpp_interactions_endpoint_options options;
            Native.platformpp_interactions_endpoint_options_init(&options);
            options.port = port;
            options.defer_after_ms = deferAfterMs;
            options.auto_defer = autoDefer ? 1 : 0;
            options.defer_ephemeral = deferEphemeral ? 1 : 0;
            fixed (byte* k = key)
            fixed (byte* a = where)
            fixed (byte* p = route)
            {
                options.public_key_hex.ptr = k;
                options.public_key_hex.size = Utf8.Size(key);
                options.address.ptr = a;
                options.address.size = Utf8.Size(where);
                options.path.ptr = p;
                options.path.size = Utf8.Size(route);
                endpoint = Native.platformpp_interactions_endpoint_create(&options);
            }
            if (endpoint == IntPtr.Zero) throw new ArgumentException("platformpp_interactions_endpoint_create refused the options");
        }

        /// <summary>
        /// Replaces the interaction callback (null removes it). The endpoint keeps the delegate alive while it is
        /// registered. The responder is the callback's to keep or Dispose.
        /// </summary>
        public void SetInteractionCallback(Action<Interaction, InteractionResponder> callback)
        {
            if (callback == null)
            {
                Native.platformpp_interactions_endpoint_set_interaction_callback(Ptr, null, IntPtr.Zero, null);
                return;
            }
            Native.platformpp_interactions_endpoint_set_interaction_callback(
                Ptr, AnswerCallbacks.InteractionFn, AnswerCallbacks.Alloc(callback), AnswerCallbacks.FreeFn);
        }

        /// <summary>Adds a log sink for messages at minSeverity and above (interaction tokens never appear).</summary>
        public void AddLogCallback(Action<string, LoggingSeverity> callback, LoggingSeverity minSeverity)
        {
            if (callback == null) throw new ArgumentNullException("callback");
            Native.platformpp_interactions_endpoint_add_log_callback(Ptr, AnswerCallbacks.LogFn,
                                                                    (platformpp_logging_severity)minSeverity,
                                                                    AnswerCallbacks.Alloc(callback), AnswerCallbacks.FreeFn);
        }

        /// <summary>Binds and starts accepting: ValidationError for a bad key or path, NetworkError when it cannot bind.</summary>
        public ClientResult Start()
        {
            return AnswerCallbacks.Take(Native.platformpp_interactions_endpoint_start(Ptr));
        }

        /// <summary>Closes the listener and every connection; Start may follow.</summary>
        public void Stop()
        {
            Native.platformpp_interactions_endpoint_stop(Ptr);
        }

        /// <summary>True while listening.</summary>
        public bool Running
        {
            get { return Native.platformpp_interactions_endpoint_running(Ptr) != 0; }
        }

        /// <summary>The port listened on; 0 when not running.</summary>
        public int Port
        {
            get { return Native.platformpp_interactions_endpoint_port(Ptr); }
        }

        /// <summary>Delivers what is queued (interactions, answers' ends, log messages); never blocks.</summary>
        public void RunCallbacks()
        {
            CallbackErrors.Enter();
            try
            {
                Native.platformpp_interactions_endpoint_run_callbacks(Ptr);
            }
            finally
            {
                CallbackErrors.Exit();
            }
        }

        /// <summary>Waits up to timeoutMs for something to deliver, then delivers it; true when something was.</summary>
        public bool WaitForCallbacks(int timeoutMs)
        {
            CallbackErrors.Enter();
            try
            {
                return Native.platformpp_interactions_endpoint_wait_for_callbacks(Ptr, timeoutMs) != 0;
            }
            finally
            {
                CallbackErrors.Exit();
            }
        }

        /// <summary>Stops listening and ends every pending answer with ClientDestroyed, on this thread.</summary>
        public void Dispose()
        {
            IntPtr owned = endpoint;
            endpoint = IntPtr.Zero;
            if (owned == IntPtr.Zero) return;
            CallbackErrors.Enter();
            try
            {
                Native.platformpp_interactions_endpoint_destroy(owned);
            }
            finally
            {
                CallbackErrors.Exit();
            }
        }

        IntPtr Ptr
        {
            get
            {
                if (endpoint == IntPtr.Zero) throw new ObjectDisposedException("InteractionsEndpoint");
                return endpoint;
            }
        }
    }

    /// <summary>
    /// What native code calls for the interactions endpoint: static delegates (never collected while the process
    /// lives) that find the managed callback through a GCHandle user_data, which the library frees exactly once
    /// (FreeFn), so a registered delegate is reachable for as long as native code may call it.
    /// </summary>
    internal static unsafe class AnswerCallbacks
    {
        static int live;

        /// <summary>Callbacks the library holds now (tests check that each is freed).</summary>
        internal static int Live
        {
            get { return System.Threading.Volatile.Read(ref live); }
        }

        /// <summary>A user_data for <paramref name="target"/>; IntPtr.Zero for null (the library then calls nothing).</summary>
        internal static IntPtr Alloc(object target)
        {
            if (target == null) return IntPtr.Zero;
            System.Threading.Interlocked.Increment(ref live);
            return GCHandle.ToIntPtr(GCHandle.Alloc(target));
        }

        /// <summary>Copies and releases a result the library handed over (null: out of memory).</summary>
        internal static ClientResult Take(IntPtr result)
        {
            if (result == IntPtr.Zero) throw new OutOfMemoryException("the library could not make the result");
            try
            {
                return ClientResult.From(result);
            }
            finally
            {
                Native.platformpp_client_result_destroy(result);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_user_data_free_fn))]
        static void Free(IntPtr userData)
        {
            if (userData == IntPtr.Zero) return;
            GCHandle.FromIntPtr(userData).Free();
            System.Threading.Interlocked.Decrement(ref live);
        }

        [MonoPInvokeCallback(typeof(platformpp_result_fn))]
        static void Done(IntPtr result, IntPtr userData)
        {
            if (userData == IntPtr.Zero) return;
            try
            {
                ((Action<ClientResult>)GCHandle.FromIntPtr(userData).Target)(ClientResult.From(result));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_interaction_fn))]
        static void OnInteraction(IntPtr interaction, IntPtr responder, IntPtr userData)
        {
            try
            {
                // The borrowed responder is cloned: the managed one may outlive the callback.
                IntPtr owned = Native.platformpp_interaction_responder_clone(responder);
                if (owned == IntPtr.Zero) throw new OutOfMemoryException("platformpp_interaction_responder_clone");
                var answer = new InteractionResponder(owned);
                ((Action<Interaction, InteractionResponder>)GCHandle.FromIntPtr(userData).Target)(answer.Interaction,
                                                                                                  answer);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_log_fn))]
        static void Log(byte* message, UIntPtr messageSize, platformpp_logging_severity severity, IntPtr userData)
        {
            try
            {
                ((Action<string, LoggingSeverity>)GCHandle.FromIntPtr(userData).Target)(
                    Utf8.DecodeOrEmpty(message, messageSize), (LoggingSeverity)severity);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        internal static readonly platformpp_user_data_free_fn FreeFn = Free;
        internal static readonly platformpp_result_fn DoneFn = Done;
        internal static readonly platformpp_interaction_fn InteractionFn = OnInteraction;
        internal static readonly platformpp_log_fn LogFn = Log;
    }
}
