using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>The player's relationship with a user, platform-wide and in this game.</summary>
    public sealed class RelationshipHandle
    {
        internal RelationshipHandle(IntPtr relationship)
        {
            Id = Native.platformpp_relationship_handle_id(relationship);
            DiscordRelationshipType = (RelationshipType)Native.platformpp_relationship_handle_discord_type(relationship);
            GameRelationshipType = (RelationshipType)Native.platformpp_relationship_handle_game_type(relationship);
            IsSpamRequest = Native.platformpp_relationship_handle_is_spam_request(relationship) != 0;
            User = UserHandle.FromBorrowed(Native.platformpp_relationship_handle_user(relationship));
        }

        public ulong Id { get; private set; }
        public RelationshipType DiscordRelationshipType { get; private set; }
        public RelationshipType GameRelationshipType { get; private set; }
        public bool IsSpamRequest { get; private set; }
        /// <summary>The user, or null when unknown.</summary>
        public UserHandle User { get; private set; }
    }

    public sealed class GuildMinimal
    {
        internal GuildMinimal(ulong id, string name, string banner)
        {
            Id = id;
            Name = name;
            Banner = banner;
        }

        public ulong Id { get; private set; }
        public string Name { get; private set; }
        /// <summary>"" when none.</summary>
        public string Banner { get; private set; }
    }

    public sealed class GuildChannel
    {
        internal GuildChannel(ulong id, string name, int type, int position, ulong? parentCategoryId,
                              string voiceStatus)
        {
            Id = id;
            Name = name;
            Type = type;
            Position = position;
            ParentCategoryId = parentCategoryId;
            VoiceStatus = voiceStatus;
        }

        public ulong Id { get; private set; }
        public string Name { get; private set; }
        /// <summary>The platform's channel type: 0 text, 2 voice, 4 category, ...</summary>
        public int Type { get; private set; }
        public int Position { get; private set; }
        public ulong? ParentCategoryId { get; private set; }
        /// <summary>A voice or stage channel's status; null when it has none or it could not be read (the
        /// SDK asks the Gateway session, so only while the Client is Ready).</summary>
        public string VoiceStatus { get; private set; }
    }

    /// <summary>One of the player's identities in this game outside the platform.</summary>
    public sealed unsafe class UserApplicationProfileHandle
    {
        internal UserApplicationProfileHandle(platformpp_user_application_profile* p)
        {
            AvatarHash = Utf8.DecodeOrEmpty(p->avatar_hash, p->avatar_hash_size);
            Metadata = Utf8.DecodeOrEmpty(p->metadata, p->metadata_size);
            ProviderId = Utf8.Decode(p->provider_id, p->provider_id_size);
            ProviderIssuedUserId = Utf8.DecodeOrEmpty(p->provider_issued_user_id, p->provider_issued_user_id_size);
            ProviderType = Utf8.DecodeOrEmpty(p->provider_type, p->provider_type_size);
            Username = Utf8.DecodeOrEmpty(p->username, p->username_size);
        }

        public string AvatarHash { get; private set; }
        public string Metadata { get; private set; }
        /// <summary>Null when none.</summary>
        public string ProviderId { get; private set; }
        public string ProviderIssuedUserId { get; private set; }
        public string ProviderType { get; private set; }
        public string Username { get; private set; }
    }
}
