using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>An invite (or join request) from a friend, kept from its callback for AcceptActivityInvite.</summary>
    public sealed unsafe class ActivityInvite : IDisposable
    {
        readonly ActivityInviteSafeHandle native;

        ActivityInvite(ActivityInviteSafeHandle native)
        {
            this.native = native;
            IntPtr i = native.DangerousGetHandle();
            SenderId = Native.platformpp_activity_invite_sender_id(i);
            ChannelId = Native.platformpp_activity_invite_channel_id(i);
            MessageId = Native.platformpp_activity_invite_message_id(i);
            Type = (ActivityActionTypes)Native.platformpp_activity_invite_type(i);
            ApplicationId = Native.platformpp_activity_invite_application_id(i);
            UIntPtr size;
            PartyId = Utf8.DecodeOrEmpty(Native.platformpp_activity_invite_party_id(i, &size), size);
            SessionId = Utf8.DecodeOrEmpty(Native.platformpp_activity_invite_session_id(i, &size), size);
            IsValid = Native.platformpp_activity_invite_is_valid(i) != 0;
        }

        internal static ActivityInvite FromBorrowed(IntPtr invite)
        {
            IntPtr clone = Native.platformpp_activity_invite_clone(invite);
            if (clone == IntPtr.Zero) throw new OutOfMemoryException("platformpp_activity_invite_clone");
            return new ActivityInvite(new ActivityInviteSafeHandle(clone));
        }

        public ulong SenderId { get; private set; }
        public ulong ChannelId { get; private set; }
        public ulong MessageId { get; private set; }
        public ActivityActionTypes Type { get; private set; }
        public ulong ApplicationId { get; private set; }
        public string PartyId { get; private set; }
        public string SessionId { get; private set; }
        public bool IsValid { get; private set; }

        internal IntPtr Ptr
        {
            get
            {
                if (native.IsClosed) throw new ObjectDisposedException("Platformpp.ActivityInvite");
                return native.DangerousGetHandle();
            }
        }

        /// <summary>Releases the native copy now (otherwise the GC does).</summary>
        public void Dispose()
        {
            native.Dispose();
        }
    }
}
