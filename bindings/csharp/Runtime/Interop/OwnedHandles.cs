using System;
using System.Runtime.InteropServices;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    // Native objects that belong to no client (plain data the library copied out): releasing them runs no
    // callback and touches no client, so the GC's finalizer may do it on its own thread.

    /// <summary>A cloned platformpp_activity_invite.</summary>
    internal sealed class ActivityInviteSafeHandle : SafeHandle
    {
        public ActivityInviteSafeHandle(IntPtr invite) : base(IntPtr.Zero, true)
        {
            SetHandle(invite);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            Native.platformpp_activity_invite_destroy(handle);
            return true;
        }
    }

    /// <summary>A platformpp_user_handle snapshot the binding owns.</summary>
    internal sealed class UserSafeHandle : SafeHandle
    {
        public UserSafeHandle(IntPtr user) : base(IntPtr.Zero, true)
        {
            SetHandle(user);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            Native.platformpp_user_handle_destroy(handle);
            return true;
        }
    }
}
