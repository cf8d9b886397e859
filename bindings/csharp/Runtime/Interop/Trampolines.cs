using System;
using System.Collections.Generic;
using AOT;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>
    /// The only managed code native code calls (user_data_free aside, in UserData): one static method per C
    /// callback shape, marked for IL2CPP, reached through a static delegate that lives as long as the process
    /// (so no function pointer the library holds can be collected). Each finds the managed callback through its
    /// user_data, converts the arguments (copying what is borrowed) and calls it; an exception is kept for
    /// RunCallbacks to rethrow (see CallbackErrors). Every one of them runs inside run_callbacks or destroy, on
    /// the thread that called it, except the two audio callbacks (Trampolines.Voice.cs).
    /// </summary>
    internal static unsafe partial class Trampolines
    {
        [MonoPInvokeCallback(typeof(platformpp_log_fn))]
        static void Log(byte* message, UIntPtr messageSize, platformpp_logging_severity severity, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<string, LoggingSeverity>>(userData)(Utf8.DecodeOrEmpty(message, messageSize),
                                                                           (LoggingSeverity)severity);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_result_fn))]
        static void Result(IntPtr result, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult>>(userData)(ClientResult.From(result));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_fetch_current_user_fn))]
        static void FetchCurrentUser(IntPtr result, ulong userId, byte* username, UIntPtr usernameSize,
                                     IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, ulong, string>>(userData)(
                    ClientResult.From(result), userId, Utf8.DecodeOrEmpty(username, usernameSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_status_changed_fn))]
        static void StatusChanged(platformpp_client_status status, platformpp_client_error error, int detail,
                                  IntPtr userData)
        {
            try
            {
                UserData.Target<Action<Client.Status, Client.Error, int>>(userData)(
                    (Client.Status)status, (Client.Error)error, detail);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_token_exchange_fn))]
        static void TokenExchange(IntPtr result, byte* access, UIntPtr accessSize, byte* refresh,
                                  UIntPtr refreshSize, platformpp_authorization_token_type tokenType,
                                  int expiresIn, byte* scopes, UIntPtr scopesSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, string, string, AuthorizationTokenType, int, string>>(userData)(
                    ClientResult.From(result), Utf8.DecodeOrEmpty(access, accessSize),
                    Utf8.DecodeOrEmpty(refresh, refreshSize), (AuthorizationTokenType)tokenType, expiresIn,
                    Utf8.DecodeOrEmpty(scopes, scopesSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_child_token_fn))]
        static void ChildToken(IntPtr result, byte* access, UIntPtr accessSize,
                               platformpp_authorization_token_type tokenType, int expiresIn, byte* scopes,
                               UIntPtr scopesSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, string, AuthorizationTokenType, int, string>>(userData)(
                    ClientResult.From(result), Utf8.DecodeOrEmpty(access, accessSize),
                    (AuthorizationTokenType)tokenType, expiresIn, Utf8.DecodeOrEmpty(scopes, scopesSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_authorization_fn))]
        static void Authorization(IntPtr result, byte* code, UIntPtr codeSize, byte* redirectUri,
                                  UIntPtr redirectUriSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, string, string>>(userData)(
                    ClientResult.From(result), Utf8.DecodeOrEmpty(code, codeSize),
                    Utf8.DecodeOrEmpty(redirectUri, redirectUriSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_url_opener_fn))]
        static int UrlOpener(byte* url, UIntPtr urlSize, IntPtr userData)
        {
            try
            {
                return UserData.Target<Func<string, bool>>(userData)(Utf8.DecodeOrEmpty(url, urlSize)) ? 1 : 0;
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
                return 0;
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_event_fn))]
        static void Event(IntPtr userData)
        {
            try
            {
                UserData.Target<Action>(userData)();
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_notify_fn))]
        static void Notify(IntPtr userData)
        {
            try
            {
                UserData.Target<Action>(userData)();
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_string_result_fn))]
        static void StringResult(IntPtr result, byte* text, UIntPtr textSize, IntPtr userData)
        {
            try
            {
                var target = UserData.Target<object>(userData);
                var linked = target as JoinLinkedLobbyGuildCallbacks;
                var callback = linked != null ? linked.Callback : (Action<ClientResult, string>)target;
                if (callback != null) callback(ClientResult.From(result), Utf8.DecodeOrEmpty(text, textSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        /// <summary>JoinLinkedLobbyGuild's two callbacks, which share one user_data.</summary>
        internal sealed class JoinLinkedLobbyGuildCallbacks
        {
            public Action MergeRequired;
            public Action<ClientResult, string> Callback;
        }

        [MonoPInvokeCallback(typeof(platformpp_notify_fn))]
        static void MergeRequired(IntPtr userData)
        {
            try
            {
                var callbacks = UserData.Target<JoinLinkedLobbyGuildCallbacks>(userData);
                if (callbacks.MergeRequired != null) callbacks.MergeRequired();
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_id_fn))]
        static void Id(ulong id, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong>>(userData)(id);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_user_id_fn))]
        static void UserId(ulong userId, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong>>(userData)(userId);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_lobby_id_result_fn))]
        static void LobbyIdResult(IntPtr result, ulong lobbyId, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, ulong>>(userData)(ClientResult.From(result), lobbyId);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_message_id_result_fn))]
        static void MessageIdResult(IntPtr result, ulong messageId, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, ulong>>(userData)(ClientResult.From(result), messageId);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_lobby_member_fn))]
        static void LobbyMember(ulong lobbyId, ulong memberId, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong, ulong>>(userData)(lobbyId, memberId);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_message_deleted_fn))]
        static void MessageDeleted(ulong messageId, ulong channelId, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong, ulong>>(userData)(messageId, channelId);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_activity_invite_fn))]
        static void ActivityInviteEvent(IntPtr invite, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ActivityInvite>>(userData)(ActivityInvite.FromBorrowed(invite));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_join_secret_fn))]
        static void JoinSecret(IntPtr result, byte* secret, UIntPtr secretSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, string>>(userData)(ClientResult.From(result),
                                                                        Utf8.DecodeOrEmpty(secret, secretSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_activity_join_fn))]
        static void ActivityJoin(byte* secret, UIntPtr secretSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<string>>(userData)(Utf8.DecodeOrEmpty(secret, secretSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_relationship_changed_fn))]
        static void RelationshipChanged(ulong userId, int isDiscordRelationshipUpdate, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong, bool>>(userData)(userId, isDiscordRelationshipUpdate != 0);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_user_guilds_fn))]
        static void UserGuilds(IntPtr result, platformpp_guild_minimal* guilds, UIntPtr count, IntPtr userData)
        {
            try
            {
                var list = new List<GuildMinimal>();
                for (ulong i = 0; i < count.ToUInt64(); i++)
                    list.Add(new GuildMinimal(guilds[i].id, Utf8.DecodeOrEmpty(guilds[i].name, guilds[i].name_size),
                                              Utf8.DecodeOrEmpty(guilds[i].banner, guilds[i].banner_size)));
                UserData.Target<Action<ClientResult, List<GuildMinimal>>>(userData)(ClientResult.From(result), list);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_guild_channels_fn))]
        static void GuildChannels(IntPtr result, platformpp_guild_channel* channels, UIntPtr count,
                                  IntPtr userData)
        {
            try
            {
                var list = new List<GuildChannel>();
                for (ulong i = 0; i < count.ToUInt64(); i++)
                {
                    var c = channels[i];
                    list.Add(new GuildChannel(c.id, Utf8.DecodeOrEmpty(c.name, c.name_size), c.type, c.position,
                                              c.parent_category_id == 0 ? (ulong?)null : c.parent_category_id,
                                              c.voice_status == null ? null
                                                                     : Utf8.DecodeOrEmpty(c.voice_status,
                                                                                          c.voice_status_size)));
                }
                UserData.Target<Action<ClientResult, List<GuildChannel>>>(userData)(ClientResult.From(result), list);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_messages_fn))]
        static void Messages(IntPtr result, IntPtr* messages, UIntPtr count, IntPtr userData)
        {
            try
            {
                var list = new List<MessageHandle>();
                for (ulong i = 0; i < count.ToUInt64(); i++)
                    list.Add(MessageHandle.FromNative(messages[i]));
                UserData.Target<Action<ClientResult, List<MessageHandle>>>(userData)(ClientResult.From(result), list);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_user_message_summaries_fn))]
        static void UserMessageSummaries(IntPtr result, platformpp_user_message_summary* summaries, UIntPtr count,
                                         IntPtr userData)
        {
            try
            {
                var list = new List<UserMessageSummary>();
                for (ulong i = 0; i < count.ToUInt64(); i++)
                    list.Add(new UserMessageSummary(summaries[i].user_id, summaries[i].last_message_id));
                UserData.Target<Action<ClientResult, List<UserMessageSummary>>>(userData)(ClientResult.From(result),
                                                                                          list);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        // Static delegates: created once, never collected, so the function pointers stay valid.
        internal static readonly platformpp_log_fn LogFn = Log;
        internal static readonly platformpp_result_fn ResultFn = Result;
        internal static readonly platformpp_fetch_current_user_fn FetchCurrentUserFn = FetchCurrentUser;
        internal static readonly platformpp_status_changed_fn StatusChangedFn = StatusChanged;
        internal static readonly platformpp_token_exchange_fn TokenExchangeFn = TokenExchange;
        internal static readonly platformpp_child_token_fn ChildTokenFn = ChildToken;
        internal static readonly platformpp_authorization_fn AuthorizationFn = Authorization;
        internal static readonly platformpp_url_opener_fn UrlOpenerFn = UrlOpener;
        internal static readonly platformpp_event_fn EventFn = Event;
        internal static readonly platformpp_notify_fn NotifyFn = Notify;
        internal static readonly platformpp_notify_fn MergeRequiredFn = MergeRequired;
        internal static readonly platformpp_string_result_fn StringResultFn = StringResult;
        internal static readonly platformpp_id_fn IdFn = Id;
        internal static readonly platformpp_user_id_fn UserIdFn = UserId;
        internal static readonly platformpp_lobby_id_result_fn LobbyIdResultFn = LobbyIdResult;
        internal static readonly platformpp_message_id_result_fn MessageIdResultFn = MessageIdResult;
        internal static readonly platformpp_lobby_member_fn LobbyMemberFn = LobbyMember;
        internal static readonly platformpp_message_deleted_fn MessageDeletedFn = MessageDeleted;
        internal static readonly platformpp_activity_invite_fn ActivityInviteFn = ActivityInviteEvent;
        internal static readonly platformpp_join_secret_fn JoinSecretFn = JoinSecret;
        internal static readonly platformpp_activity_join_fn ActivityJoinFn = ActivityJoin;
        internal static readonly platformpp_relationship_changed_fn RelationshipChangedFn = RelationshipChanged;
        internal static readonly platformpp_user_guilds_fn UserGuildsFn = UserGuilds;
        internal static readonly platformpp_guild_channels_fn GuildChannelsFn = GuildChannels;
        internal static readonly platformpp_messages_fn MessagesFn = Messages;
        internal static readonly platformpp_user_message_summaries_fn UserMessageSummariesFn = UserMessageSummaries;
    }
}
