using System;
using System.Runtime.InteropServices;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>
    /// Owns one platformpp_call handle. Releasing it only drops a reference to the call: the library itself
    /// drops call references on its own threads and defers the user_data frees that follow to the game thread
    /// (run_callbacks) while the client lives, and platformpp_call_destroy is the one function the C header
    /// allows after the client is destroyed. So the GC's finalizer may release it: no callback runs, and at most
    /// UserData's free (a GCHandle.Free) runs on the finalizer's thread once the client is gone.
    /// </summary>
    internal sealed class CallSafeHandle : SafeHandle
    {
        public CallSafeHandle(IntPtr call) : base(IntPtr.Zero, true)
        {
            SetHandle(call);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            Native.platformpp_call_destroy(handle);
            return true;
        }
    }
}
