using System;
using System.Runtime.InteropServices;
using System.Threading;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>
    /// Owns a native platformpp_client. Client.Dispose releases it on the game thread. The finalizer releases it
    /// only when destroying it can run no managed code, so that no callback ever runs on the GC's thread:
    /// <list type="bullet">
    /// <item>Every user_data this binding gives the library for a client is a GCHandle to a CallbackBox that
    /// references this handle. While the library holds one, the handle is reachable and cannot be finalized; when
    /// the finalizer runs, the library holds no callback of ours for this client, so platformpp_client_destroy
    /// (which completes pending operations by calling their callbacks) has nothing managed to call.</item>
    /// <item>Belt and braces for process exit, when runtimes may finalize reachable objects too: a release that
    /// does not come from Dispose leaves the client alone while any of its boxes is alive.</item>
    /// </list>
    /// The C header makes no promise that destroy is safe on another thread concurrently with other calls; the
    /// finalizer never races with one, because an unreachable client cannot be in use.
    /// </summary>
    internal sealed class ClientHandle : SafeHandle
    {
        int liveBoxes;
        volatile bool explicitRelease;

        /// <summary>An exception an audio callback threw on the voice thread, for the next RunCallbacks.</summary>
        internal Exception AudioException;

        public ClientHandle(IntPtr client) : base(IntPtr.Zero, true)
        {
            SetHandle(client);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>The callbacks of this client the library still holds.</summary>
        public int LiveBoxes
        {
            get { return Volatile.Read(ref liveBoxes); }
        }

        internal void BoxAllocated()
        {
            Interlocked.Increment(ref liveBoxes);
        }

        internal void BoxFreed()
        {
            Interlocked.Decrement(ref liveBoxes);
        }

        /// <summary>Destroys the client now, on this thread (Client.Dispose).</summary>
        public void Destroy()
        {
            explicitRelease = true;
            Dispose();
        }

        protected override bool ReleaseHandle()
        {
            if (!explicitRelease && Volatile.Read(ref liveBoxes) != 0) return true;  // see the class comment
            Native.platformpp_client_destroy(handle);
            return true;
        }
    }
}
