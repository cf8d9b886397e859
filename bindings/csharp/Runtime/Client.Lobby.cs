using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Lobbies: the Gateway keeps them current; create, join, leave and link are HTTP calls.
    public sealed unsafe partial class Client
    {
        /// <summary>Creates the lobby of this secret or joins it; the callback gets its id.</summary>
        public void CreateOrJoinLobby(string secret, Action<ClientResult, ulong> callback)
        {
            CreateOrJoin(secret, null, null, callback);
        }

        /// <summary>CreateOrJoinLobby that replaces the lobby's and the player's member metadata with these.</summary>
        public void CreateOrJoinLobbyWithMetadata(string secret, IDictionary<string, string> lobbyMetadata,
                                                  IDictionary<string, string> memberMetadata,
                                                  Action<ClientResult, ulong> callback)
        {
            CreateOrJoin(secret, new Utf8Pairs(lobbyMetadata), new Utf8Pairs(memberMetadata), callback);
        }

        void CreateOrJoin(string secret, Utf8Pairs lobby, Utf8Pairs member, Action<ClientResult, ulong> callback)
        {
            IntPtr client = Ptr;
            byte[] s = Utf8.Encode(secret ?? "");
            var none = new Utf8Pairs(null);
            var l = lobby ?? none;
            var m = member ?? none;
            fixed (byte* ps = s)
            fixed (byte* lb = l.Buffer)
            fixed (platformpp_string_pair* lp = l.Pairs)
            fixed (byte* mb = m.Buffer)
            fixed (platformpp_string_pair* mp = m.Pairs)
                Native.platformpp_client_create_or_join_lobby(
                    client, ps, Utf8.Size(s), lobby == null ? null : l.Fill(lb, lp), new UIntPtr((uint)l.Count),
                    member == null ? null : m.Fill(mb, mp), new UIntPtr((uint)m.Count),
                    Fn(callback, Trampolines.LobbyIdResultFn), Box(callback), Free(callback));
        }

        public void LeaveLobby(ulong lobbyId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_leave_lobby(client, lobbyId, Fn(callback, Trampolines.ResultFn), Box(callback),
                                                 Free(callback));
        }

        /// <summary>A lobby the player is in, or null.</summary>
        public LobbyHandle GetLobbyHandle(ulong lobbyId)
        {
            IntPtr lobby = Native.platformpp_client_get_lobby_handle(Ptr, lobbyId);
            if (lobby == IntPtr.Zero) return null;
            try
            {
                return new LobbyHandle(lobby);
            }
            finally
            {
                Native.platformpp_lobby_handle_destroy(lobby);
            }
        }

        public List<ulong> GetLobbyIds()
        {
            IntPtr client = Ptr;
            for (;;)
            {
                ulong count = Native.platformpp_client_get_lobby_ids(client, null, UIntPtr.Zero).ToUInt64();
                var ids = new ulong[Math.Max(count, 1)];
                fixed (ulong* p = ids)
                {
                    ulong now = Native.platformpp_client_get_lobby_ids(client, p, new UIntPtr(count)).ToUInt64();
                    if (now <= count) return Ids(p, new UIntPtr(now));  // else a lobby arrived in between: again
                }
            }
        }

        public void LinkChannelToLobby(ulong lobbyId, ulong channelId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_link_channel_to_lobby(client, lobbyId, channelId, Fn(callback, Trampolines.ResultFn),
                                                           Box(callback), Free(callback));
        }

        public void UnlinkChannelFromLobby(ulong lobbyId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_unlink_channel_from_lobby(client, lobbyId, Fn(callback, Trampolines.ResultFn),
                                                               Box(callback), Free(callback));
        }

        /// <summary>
        /// Joins the guild of the lobby's linked channel: the callback gets the invite URL; for a provisional
        /// account provisionalUserMergeRequired runs instead.
        /// </summary>
        public void JoinLinkedLobbyGuild(ulong lobbyId, Action provisionalUserMergeRequired,
                                         Action<ClientResult, string> callback)
        {
            IntPtr client = Ptr;
            object both = null;
            if (provisionalUserMergeRequired != null || callback != null)
                both = new Trampolines.JoinLinkedLobbyGuildCallbacks
                {
                    MergeRequired = provisionalUserMergeRequired,
                    Callback = callback,
                };
            Native.platformpp_client_join_linked_lobby_guild(
                client, lobbyId, provisionalUserMergeRequired == null ? null : Trampolines.MergeRequiredFn,
                callback == null ? null : Trampolines.StringResultFn, Box(both), Free(both));
        }

        public void SetLobbyCreatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_created_callback(client, Fn(callback, Trampolines.IdFn), Box(callback),
                                                                Free(callback));
        }

        public void SetLobbyUpdatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_updated_callback(client, Fn(callback, Trampolines.IdFn), Box(callback),
                                                                Free(callback));
        }

        public void SetLobbyDeletedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_deleted_callback(client, Fn(callback, Trampolines.IdFn), Box(callback),
                                                                Free(callback));
        }

        /// <summary>(lobbyId, memberId).</summary>
        public void SetLobbyMemberAddedCallback(Action<ulong, ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_member_added_callback(client, Fn(callback, Trampolines.LobbyMemberFn),
                                                                     Box(callback), Free(callback));
        }

        public void SetLobbyMemberUpdatedCallback(Action<ulong, ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_member_updated_callback(client, Fn(callback, Trampolines.LobbyMemberFn),
                                                                       Box(callback), Free(callback));
        }

        public void SetLobbyMemberRemovedCallback(Action<ulong, ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_lobby_member_removed_callback(client, Fn(callback, Trampolines.LobbyMemberFn),
                                                                       Box(callback), Free(callback));
        }
    }
}
