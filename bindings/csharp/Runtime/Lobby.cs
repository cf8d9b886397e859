using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>A member of a lobby (a snapshot).</summary>
    public sealed unsafe class LobbyMemberHandle
    {
        internal LobbyMemberHandle(IntPtr member)
        {
            Id = Native.platformpp_lobby_member_handle_id(member);
            Flags = Native.platformpp_lobby_member_handle_flags(member);
            CanLinkLobby = Native.platformpp_lobby_member_handle_can_link_lobby(member) != 0;
            Connected = Native.platformpp_lobby_member_handle_connected(member) != 0;
            UIntPtr count;
            Metadata = Utf8.DecodePairs(Native.platformpp_lobby_member_handle_metadata(member, &count), count);
            User = UserHandle.FromBorrowed(Native.platformpp_lobby_member_handle_user(member));
        }

        public ulong Id { get; private set; }
        public Dictionary<string, string> Metadata { get; private set; }
        /// <summary>Bits of LobbyMemberFlags.</summary>
        public uint Flags { get; private set; }
        public bool CanLinkLobby { get; private set; }
        /// <summary>Whether the member has a realtime connection to this game open now.</summary>
        public bool Connected { get; private set; }
        /// <summary>The member as a user, or null when the client does not know them.</summary>
        public UserHandle User { get; private set; }
    }

    /// <summary>The guild text channel linked to a lobby.</summary>
    public sealed class LinkedChannel
    {
        internal LinkedChannel(ulong id, string name, ulong guildId)
        {
            Id = id;
            Name = name;
            GuildId = guildId;
        }

        public ulong Id { get; private set; }
        public string Name { get; private set; }
        public ulong GuildId { get; private set; }
    }

    /// <summary>Who is in the voice call of a lobby.</summary>
    public sealed class CallInfoHandle
    {
        readonly List<ulong> participants;

        internal CallInfoHandle(ulong channelId, List<ulong> participants)
        {
            ChannelId = channelId;
            this.participants = participants;
        }

        public ulong ChannelId { get; private set; }
        /// <summary>0: lobby calls belong to no guild.</summary>
        public ulong GuildId { get { return 0; } }

        public List<ulong> GetParticipants()
        {
            return new List<ulong>(participants);
        }
    }

    /// <summary>A lobby the player is a member of, as the Client knew it when asked (a snapshot).</summary>
    public sealed unsafe class LobbyHandle
    {
        readonly List<LobbyMemberHandle> members = new List<LobbyMemberHandle>();

        internal LobbyHandle(IntPtr lobby)
        {
            Id = Native.platformpp_lobby_handle_id(lobby);
            UIntPtr count;
            Metadata = Utf8.DecodePairs(Native.platformpp_lobby_handle_metadata(lobby, &count), count);
            ulong memberCount = Native.platformpp_lobby_handle_member_count(lobby).ToUInt64();
            for (ulong i = 0; i < memberCount; i++)
            {
                IntPtr member = Native.platformpp_lobby_handle_member_at(lobby, new UIntPtr(i));
                if (member != IntPtr.Zero) members.Add(new LobbyMemberHandle(member));
            }
            ulong channelId, guildId;
            byte* name;
            UIntPtr nameSize;
            if (Native.platformpp_lobby_handle_linked_channel(lobby, &channelId, &guildId, &name, &nameSize) != 0)
                LinkedChannel = new LinkedChannel(channelId, Utf8.DecodeOrEmpty(name, nameSize), guildId);
            ulong* participants = Native.platformpp_lobby_handle_call_participants(lobby, &count);
            if (participants != null) callInfo = new CallInfoHandle(Id, Client.Ids(participants, count));
        }

        readonly CallInfoHandle callInfo;

        public ulong Id { get; private set; }
        public Dictionary<string, string> Metadata { get; private set; }
        /// <summary>The linked guild channel, or null.</summary>
        public LinkedChannel LinkedChannel { get; private set; }

        public List<LobbyMemberHandle> LobbyMembers()
        {
            return new List<LobbyMemberHandle>(members);
        }

        public List<ulong> LobbyMemberIds()
        {
            return members.ConvertAll(m => m.Id);
        }

        /// <summary>The member, or null when memberId is not one.</summary>
        public LobbyMemberHandle GetLobbyMemberHandle(ulong memberId)
        {
            return members.Find(m => m.Id == memberId);
        }

        /// <summary>The lobby's call while anyone is in it, or null.</summary>
        public CallInfoHandle GetCallInfoHandle()
        {
            return callInfo;
        }
    }
}
