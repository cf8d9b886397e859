using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Rich presence and activity invites.
    public sealed unsafe partial class Client
    {
        /// <summary>
        /// Shows the activity to the player's friends: over the realtime connection when Ready, else over the
        /// desktop client. Checked first: a violation is ValidationError whose FieldErrors name the field.
        /// </summary>
        public void UpdateRichPresence(Activity activity, Action<ClientResult> callback)
        {
            if (activity == null) throw new ArgumentNullException("activity");
            IntPtr client = Ptr;
            IntPtr native = activity.ToNative();
            try
            {
                Native.platformpp_client_update_rich_presence(client, native, Fn(callback, Trampolines.ResultFn),
                                                              Box(callback), Free(callback));
            }
            finally
            {
                Native.platformpp_activity_destroy(native);
            }
        }

        public void ClearRichPresence()
        {
            Native.platformpp_client_clear_rich_presence(Ptr);
        }

        /// <summary>Online, Idle, Dnd or Invisible, over the realtime connection.</summary>
        public void SetOnlineStatus(StatusType status, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_online_status(client, (platformpp_status_type)status,
                                                       Fn(callback, Trampolines.ResultFn), Box(callback),
                                                       Free(callback));
        }

        /// <summary>Invites a friend into the player's (joinable) activity; content may be empty.</summary>
        public void SendActivityInvite(ulong userId, string content, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(content ?? "");
            fixed (byte* pc = c)
                Native.platformpp_client_send_activity_invite(client, userId, pc, Utf8.Size(c),
                                                              Fn(callback, Trampolines.ResultFn), Box(callback),
                                                              Free(callback));
        }

        /// <summary>Asks userId to invite the player into their activity.</summary>
        public void SendActivityJoinRequest(ulong userId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_send_activity_join_request(client, userId, Fn(callback, Trampolines.ResultFn),
                                                                Box(callback), Free(callback));
        }

        /// <summary>Accepts an invite: the callback gets the join secret of the sender's activity.</summary>
        public void AcceptActivityInvite(ActivityInvite invite, Action<ClientResult, string> callback)
        {
            if (invite == null) throw new ArgumentNullException("invite");
            IntPtr client = Ptr;
            IntPtr native = invite.Ptr;
            Native.platformpp_client_accept_activity_invite(client, native, Fn(callback, Trampolines.JoinSecretFn),
                                                            Box(callback), Free(callback));
            GC.KeepAlive(invite);
        }

        /// <summary>An invite or join request for this game arrived from a friend.</summary>
        public void SetActivityInviteCreatedCallback(Action<ActivityInvite> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_activity_invite_created_callback(
                client, Fn(callback, Trampolines.ActivityInviteFn), Box(callback), Free(callback));
        }

        /// <summary>A received invite became invalid (its sender left the party) or valid again.</summary>
        public void SetActivityInviteUpdatedCallback(Action<ActivityInvite> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_activity_invite_updated_callback(
                client, Fn(callback, Trampolines.ActivityInviteFn), Box(callback), Free(callback));
        }

        /// <summary>The player joined a friend's activity from the desktop client: its join secret.</summary>
        public void SetActivityJoinCallback(Action<string> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_activity_join_callback(client, Fn(callback, Trampolines.ActivityJoinFn),
                                                                Box(callback), Free(callback));
        }

        /// <summary>Registers how the desktop client starts the game to join an activity. False on failure.</summary>
        public bool RegisterLaunchCommand(ulong applicationId, string command)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(command ?? "");
            fixed (byte* pc = c)
                return Native.platformpp_client_register_launch_command(client, applicationId, pc, Utf8.Size(c)) != 0;
        }

        public bool RegisterLaunchSteamApplication(ulong applicationId, uint steamAppId)
        {
            return Native.platformpp_client_register_launch_steam_application(Ptr, applicationId, steamAppId) != 0;
        }
    }
}
