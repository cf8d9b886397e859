using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Relationships, users and guilds. The state (GetRelationships, GetUser, ...) comes from the realtime
    // connection; the calls that change a relationship end when the platform answered, and the new state follows
    // with the callbacks below.
    public sealed unsafe partial class Client
    {
        public List<RelationshipHandle> GetRelationships()
        {
            return Relationships(Native.platformpp_client_get_relationships(Ptr));
        }

        /// <summary>Sorted as the desktop client sorts: by display name, then id.</summary>
        public List<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType group)
        {
            return Relationships(
                Native.platformpp_client_get_relationships_by_group(Ptr, (platformpp_relationship_group_type)group));
        }

        static List<RelationshipHandle> Relationships(IntPtr list)
        {
            var result = new List<RelationshipHandle>();
            if (list == IntPtr.Zero) return result;
            try
            {
                ulong count = Native.platformpp_relationship_list_size(list).ToUInt64();
                for (ulong i = 0; i < count; i++)
                {
                    IntPtr r = Native.platformpp_relationship_list_at(list, new UIntPtr(i));
                    if (r != IntPtr.Zero) result.Add(new RelationshipHandle(r));
                }
            }
            finally
            {
                Native.platformpp_relationship_list_destroy(list);
            }
            return result;
        }

        /// <summary>The relationship with userId (None types when there is none).</summary>
        public RelationshipHandle GetRelationshipHandle(ulong userId)
        {
            IntPtr r = Native.platformpp_client_get_relationship_handle(Ptr, userId);
            if (r == IntPtr.Zero) return null;
            try
            {
                return new RelationshipHandle(r);
            }
            finally
            {
                Native.platformpp_relationship_handle_destroy(r);
            }
        }

        public void SendDiscordFriendRequest(string username, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] u = Utf8.Encode(username ?? "");
            fixed (byte* pu = u)
                Native.platformpp_client_send_discord_friend_request(client, pu, Utf8.Size(u),
                                                                     Fn(callback, Trampolines.ResultFn), Box(callback),
                                                                     Free(callback));
        }

        public void SendGameFriendRequest(string username, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] u = Utf8.Encode(username ?? "");
            fixed (byte* pu = u)
                Native.platformpp_client_send_game_friend_request(client, pu, Utf8.Size(u),
                                                                  Fn(callback, Trampolines.ResultFn), Box(callback),
                                                                  Free(callback));
        }

        void RelationshipAction(platformpp_relationship_action action, ulong userId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_relationship_action(client, action, userId, Fn(callback, Trampolines.ResultFn),
                                                         Box(callback), Free(callback));
        }

        public void SendDiscordFriendRequestById(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_SEND_DISCORD_FRIEND_REQUEST,
                               userId, callback);
        }

        public void SendGameFriendRequestById(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_SEND_GAME_FRIEND_REQUEST,
                               userId, callback);
        }

        public void AcceptDiscordFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(
                platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_DISCORD_FRIEND_REQUEST, userId,
                callback);
        }

        public void AcceptGameFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_GAME_FRIEND_REQUEST,
                               userId, callback);
        }

        public void RejectDiscordFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(
                platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_REJECT_DISCORD_FRIEND_REQUEST, userId,
                callback);
        }

        public void RejectGameFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_REJECT_GAME_FRIEND_REQUEST,
                               userId, callback);
        }

        public void CancelDiscordFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(
                platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_DISCORD_FRIEND_REQUEST, userId,
                callback);
        }

        public void CancelGameFriendRequest(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_GAME_FRIEND_REQUEST,
                               userId, callback);
        }

        public void RemoveDiscordAndGameFriend(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(
                platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_DISCORD_AND_GAME_FRIEND, userId,
                callback);
        }

        public void RemoveGameFriend(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_GAME_FRIEND, userId,
                               callback);
        }

        public void BlockUser(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_BLOCK_USER, userId,
                               callback);
        }

        public void UnblockUser(ulong userId, Action<ClientResult> callback)
        {
            RelationshipAction(platformpp_relationship_action.PLATFORMPP_RELATIONSHIP_ACTION_UNBLOCK_USER, userId,
                               callback);
        }

        /// <summary>Friends whose name contains searchStr.</summary>
        public List<UserHandle> SearchFriendsByUsername(string searchStr)
        {
            IntPtr client = Ptr;
            byte[] s = Utf8.Encode(searchStr ?? "");
            IntPtr list;
            fixed (byte* ps = s)
                list = Native.platformpp_client_search_friends_by_username(client, ps, Utf8.Size(s));
            var result = new List<UserHandle>();
            if (list == IntPtr.Zero) return result;
            try
            {
                ulong count = Native.platformpp_user_list_size(list).ToUInt64();
                for (ulong i = 0; i < count; i++)
                {
                    var user = UserHandle.FromBorrowed(Native.platformpp_user_list_at(list, new UIntPtr(i)));
                    if (user != null) result.Add(user);
                }
            }
            finally
            {
                Native.platformpp_user_list_destroy(list);
            }
            return result;
        }

        /// <summary>(userId, isDiscordRelationshipUpdate) when a relationship appears.</summary>
        public void SetRelationshipCreatedCallback(Action<ulong, bool> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_relationship_created_callback(
                client, Fn(callback, Trampolines.RelationshipChangedFn), Box(callback), Free(callback));
        }

        public void SetRelationshipDeletedCallback(Action<ulong, bool> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_relationship_deleted_callback(
                client, Fn(callback, Trampolines.RelationshipChangedFn), Box(callback), Free(callback));
        }

        /// <summary>A user moved between the groups of GetRelationshipsByGroup: time to redraw the list.</summary>
        public void SetRelationshipGroupsUpdatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_relationship_groups_updated_callback(
                client, Fn(callback, Trampolines.UserIdFn), Box(callback), Free(callback));
        }

        /// <summary>The player, once the realtime connection is Ready; null before.</summary>
        public UserHandle GetCurrentUserV2()
        {
            return UserHandle.FromOwned(Native.platformpp_client_get_current_user(Ptr));
        }

        /// <summary>A user the client knows, or null.</summary>
        public UserHandle GetUser(ulong userId)
        {
            return UserHandle.FromOwned(Native.platformpp_client_get_user(Ptr, userId));
        }

        public void SetUserUpdatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_user_updated_callback(client, Fn(callback, Trampolines.UserIdFn),
                                                               Box(callback), Free(callback));
        }

        /// <summary>The guilds the player is in (HTTP).</summary>
        public void GetUserGuilds(Action<ClientResult, List<GuildMinimal>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_user_guilds(client, Fn(callback, Trampolines.UserGuildsFn), Box(callback),
                                                     Free(callback));
        }

        /// <summary>A guild's channels the player can see, sorted as the desktop client shows them (HTTP).</summary>
        public void GetGuildChannels(ulong guildId, Action<ClientResult, List<GuildChannel>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_guild_channels(client, guildId, Fn(callback, Trampolines.GuildChannelsFn),
                                                        Box(callback), Free(callback));
        }

        public List<UserApplicationProfileHandle> GetUserApplicationProfiles()
        {
            IntPtr list = Native.platformpp_client_get_user_application_profiles(Ptr);
            var result = new List<UserApplicationProfileHandle>();
            if (list == IntPtr.Zero) return result;
            try
            {
                ulong count = Native.platformpp_user_application_profile_list_size(list).ToUInt64();
                for (ulong i = 0; i < count; i++)
                {
                    var p = Native.platformpp_user_application_profile_list_at(list, new UIntPtr(i));
                    if (p != null) result.Add(new UserApplicationProfileHandle(p));
                }
            }
            finally
            {
                Native.platformpp_user_application_profile_list_destroy(list);
            }
            return result;
        }
    }
}
