using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Lobby messages and DMs. Nothing is lost or duplicated: a send that meets a failure is retried with the
    // same nonce, one message per channel at a time.
    public sealed unsafe partial class Client
    {
        /// <summary>Sends to a lobby; the callback gets the message id.</summary>
        public void SendLobbyMessage(ulong lobbyId, string content, Action<ClientResult, ulong> callback)
        {
            SendMessage(true, lobbyId, content, null, callback);
        }

        public void SendLobbyMessageWithMetadata(ulong lobbyId, string content, IDictionary<string, string> metadata,
                                                 Action<ClientResult, ulong> callback)
        {
            SendMessage(true, lobbyId, content, new Utf8Pairs(metadata), callback);
        }

        /// <summary>A DM to another player.</summary>
        public void SendUserMessage(ulong recipientId, string content, Action<ClientResult, ulong> callback)
        {
            SendMessage(false, recipientId, content, null, callback);
        }

        public void SendUserMessageWithMetadata(ulong recipientId, string content, IDictionary<string, string> metadata,
                                                Action<ClientResult, ulong> callback)
        {
            SendMessage(false, recipientId, content, new Utf8Pairs(metadata), callback);
        }

        void SendMessage(bool lobby, ulong id, string content, Utf8Pairs metadata, Action<ClientResult, ulong> callback)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(content ?? "");
            var pairs = metadata ?? new Utf8Pairs(null);
            fixed (byte* pc = c)
            fixed (byte* buffer = pairs.Buffer)
            fixed (platformpp_string_pair* p = pairs.Pairs)
            {
                platformpp_string_pair* filled = metadata == null ? null : pairs.Fill(buffer, p);
                var count = new UIntPtr((uint)pairs.Count);
                if (lobby)
                    Native.platformpp_client_send_lobby_message(client, id, pc, Utf8.Size(c), filled, count,
                                                                Fn(callback, Trampolines.MessageIdResultFn),
                                                                Box(callback), Free(callback));
                else
                    Native.platformpp_client_send_user_message(client, id, pc, Utf8.Size(c), filled, count,
                                                               Fn(callback, Trampolines.MessageIdResultFn),
                                                               Box(callback), Free(callback));
            }
        }

        public void EditUserMessage(ulong recipientId, ulong messageId, string content, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(content ?? "");
            fixed (byte* pc = c)
                Native.platformpp_client_edit_user_message(client, recipientId, messageId, pc, Utf8.Size(c),
                                                           Fn(callback, Trampolines.ResultFn), Box(callback),
                                                           Free(callback));
        }

        public void DeleteUserMessage(ulong recipientId, ulong messageId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_delete_user_message(client, recipientId, messageId,
                                                         Fn(callback, Trampolines.ResultFn), Box(callback),
                                                         Free(callback));
        }

        /// <summary>A message the client holds (the 25 newest of each channel), or null.</summary>
        public MessageHandle GetMessageHandle(ulong messageId)
        {
            IntPtr message = Native.platformpp_client_get_message_handle(Ptr, messageId);
            if (message == IntPtr.Zero) return null;
            try
            {
                return MessageHandle.FromNative(message);
            }
            finally
            {
                Native.platformpp_message_handle_destroy(message);
            }
        }

        /// <summary>A channel the client knows, or null.</summary>
        public ChannelHandle GetChannelHandle(ulong channelId)
        {
            IntPtr channel = Native.platformpp_client_get_channel_handle(Ptr, channelId);
            if (channel == IntPtr.Zero) return null;
            try
            {
                return new ChannelHandle(channel);
            }
            finally
            {
                Native.platformpp_channel_handle_destroy(channel);
            }
        }

        /// <summary>A lobby's history (at most 200, 72 hours), oldest first.</summary>
        public void GetLobbyMessagesWithLimit(ulong lobbyId, int limit, Action<ClientResult, List<MessageHandle>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_lobby_messages_with_limit(client, lobbyId, limit,
                                                                   Fn(callback, Trampolines.MessagesFn), Box(callback),
                                                                   Free(callback));
        }

        public void GetUserMessagesWithLimit(ulong recipientId, int limit,
                                             Action<ClientResult, List<MessageHandle>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_user_messages_with_limit(client, recipientId, limit,
                                                                  Fn(callback, Trampolines.MessagesFn), Box(callback),
                                                                  Free(callback));
        }

        /// <summary>The player's DM conversations with their last message.</summary>
        public void GetUserMessageSummaries(Action<ClientResult, List<UserMessageSummary>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_user_message_summaries(client, Fn(callback, Trampolines.UserMessageSummariesFn),
                                                                Box(callback), Free(callback));
        }

        public void SetMessageCreatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_message_created_callback(client, Fn(callback, Trampolines.IdFn), Box(callback),
                                                                  Free(callback));
        }

        public void SetMessageUpdatedCallback(Action<ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_message_updated_callback(client, Fn(callback, Trampolines.IdFn), Box(callback),
                                                                  Free(callback));
        }

        /// <summary>(messageId, channelId).</summary>
        public void SetMessageDeletedCallback(Action<ulong, ulong> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_message_deleted_callback(client, Fn(callback, Trampolines.MessageDeletedFn),
                                                                  Box(callback), Free(callback));
        }

        /// <summary>Whether the game shows its chat now (the platform uses it for notifications).</summary>
        public void SetShowingChat(bool showingChat)
        {
            Native.platformpp_client_set_showing_chat(Ptr, showingChat ? 1 : 0);
        }
    }
}
