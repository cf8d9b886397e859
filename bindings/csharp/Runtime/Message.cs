using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>A lobby message or DM as the client holds it (a snapshot).</summary>
    public sealed unsafe class MessageHandle
    {
        internal static MessageHandle FromNative(IntPtr message)
        {
            var m = new MessageHandle();
            m.Id = Native.platformpp_message_handle_id(message);
            m.AuthorId = Native.platformpp_message_handle_author_id(message);
            m.ChannelId = Native.platformpp_message_handle_channel_id(message);
            ulong lobbyId = Native.platformpp_message_handle_lobby_id(message);
            m.LobbyId = lobbyId == 0 ? (ulong?)null : lobbyId;
            m.RecipientId = Native.platformpp_message_handle_recipient_id(message);
            UIntPtr size;
            m.Content = Utf8.DecodeOrEmpty(Native.platformpp_message_handle_content(message, &size), size);
            m.SentTimestamp = Native.platformpp_message_handle_sent_timestamp(message);
            m.EditedTimestamp = Native.platformpp_message_handle_edited_timestamp(message);
            m.Metadata = Utf8.DecodePairs(Native.platformpp_message_handle_metadata(message, &size), size);
            m.ModerationMetadata =
                Utf8.DecodePairs(Native.platformpp_message_handle_moderation_metadata(message, &size), size);
            m.AdditionalName = Utf8.Decode(Native.platformpp_message_handle_additional_name(message, &size), size);
            m.Author = UserHandle.FromBorrowed(Native.platformpp_message_handle_author(message));
            return m;
        }

        public ulong Id { get; private set; }
        public ulong AuthorId { get; private set; }
        /// <summary>The author, or null when unknown.</summary>
        public UserHandle Author { get; private set; }
        public ulong ChannelId { get; private set; }
        /// <summary>The lobby of a lobby message; null for a DM.</summary>
        public ulong? LobbyId { get; private set; }
        /// <summary>The other player of a DM; 0 for a lobby message.</summary>
        public ulong RecipientId { get; private set; }
        public string Content { get; private set; }
        /// <summary>Milliseconds since the Unix epoch.</summary>
        public ulong SentTimestamp { get; private set; }
        /// <summary>0 unless edited.</summary>
        public ulong EditedTimestamp { get; private set; }
        public Dictionary<string, string> Metadata { get; private set; }
        public Dictionary<string, string> ModerationMetadata { get; private set; }
        /// <summary>The author's additional name in the lobby, or null.</summary>
        public string AdditionalName { get; private set; }
    }

    /// <summary>A channel the client knows: a DM, a lobby's, ...</summary>
    public sealed unsafe class ChannelHandle
    {
        internal ChannelHandle(IntPtr channel)
        {
            Id = Native.platformpp_channel_handle_id(channel);
            Type = (ChannelType)Native.platformpp_channel_handle_type(channel);
            UIntPtr size;
            Name = Utf8.DecodeOrEmpty(Native.platformpp_channel_handle_name(channel, &size), size);
            ulong* recipients = Native.platformpp_channel_handle_recipients(channel, &size);
            Recipients = recipients == null ? new List<ulong>() : Client.Ids(recipients, size);
        }

        public ulong Id { get; private set; }
        public string Name { get; private set; }
        public List<ulong> Recipients { get; private set; }
        public ChannelType Type { get; private set; }
    }

    /// <summary>The last message of a DM conversation.</summary>
    public sealed class UserMessageSummary
    {
        internal UserMessageSummary(ulong userId, ulong lastMessageId)
        {
            UserId = userId;
            LastMessageId = lastMessageId;
        }

        public ulong UserId { get; private set; }
        public ulong LastMessageId { get; private set; }
    }
}
