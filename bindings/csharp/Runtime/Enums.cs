using System;

// The enums of the C++ API (include/platformpp/*.hpp) with their numeric values, which are the C ABI's; the
// binding passes them to the raw layer by value. The csharp_unit test checks every value against the
// generated raw enums. Enums that belong to a class (Client.Status, Call.Status, UserHandle.AvatarType) are
// nested in it, as in C++.
namespace Platformpp
{
    /// <summary>Kinds of failure of an operation (ClientResult.Type).</summary>
    public enum ErrorType
    {
        None = 0,
        NetworkError = 1,
        HTTPError = 2,
        ClientNotReady = 3,
        Disabled = 4,
        ClientDestroyed = 5,
        ValidationError = 6,
        Aborted = 7,
        AuthorizationFailed = 8,
        RPCError = 9,
    }

    public enum LoggingSeverity
    {
        Verbose = 1,
        Info = 2,
        Warning = 3,
        Error = 4,
        None = 5,
    }

    public enum AuthorizationTokenType
    {
        User = 0,
        Bearer = 1,
    }

    public enum AuthenticationCodeChallengeMethod
    {
        S256 = 0,
    }

    /// <summary>How the application is installed.</summary>
    public enum IntegrationType
    {
        GuildInstall = 0,
        UserInstall = 1,
    }

    /// <summary>Identity providers for provisional accounts.</summary>
    public enum AuthenticationExternalAuthType
    {
        OIDC = 0,
        EpicOnlineServicesAccessToken = 1,
        EpicOnlineServicesIdToken = 2,
        SteamSessionTicket = 3,
        UnityServicesIdToken = 4,
        DiscordBotIssuedAccessToken = 5,
        AppleIdToken = 6,
        PlayStationNetworkIdToken = 7,
    }

    public enum ActivityTypes
    {
        Playing = 0,
        Streaming = 1,
        Listening = 2,
        Watching = 3,
        CustomStatus = 4,
        Competing = 5,
        HangStatus = 6,
    }

    /// <summary>Which field the platform shows in the player's status line.</summary>
    public enum StatusDisplayTypes
    {
        Name = 0,
        State = 1,
        Details = 2,
    }

    public enum ActivityActionTypes
    {
        Invalid = 0,
        Join = 1,
        JoinRequest = 5,
    }

    public enum ActivityPartyPrivacy
    {
        Private = 0,
        Public = 1,
    }

    /// <summary>Bits of Activity.SupportedPlatforms.</summary>
    [Flags]
    public enum ActivityGamePlatforms
    {
        Desktop = 1,
        Xbox = 2,
        Samsung = 4,
        IOS = 8,
        Android = 16,
        Embedded = 32,
        PS4 = 64,
        PS5 = 128,
    }

    public enum StatusType
    {
        Online = 0,
        Offline = 1,
        Blocked = 2,
        Idle = 3,
        Dnd = 4,
        Invisible = 5,
        Streaming = 6,
        Unknown = 7,
    }

    public enum RelationshipType
    {
        None = 0,
        Friend = 1,
        Blocked = 2,
        PendingIncoming = 3,
        PendingOutgoing = 4,
        Implicit = 5,
        Suggestion = 6,
    }

    /// <summary>The groups of a friends list, as the desktop client shows them.</summary>
    public enum RelationshipGroupType
    {
        OnlinePlayingGame = 0,
        OnlineElsewhere = 1,
        Offline = 2,
    }

    /// <summary>Bits of LobbyMemberHandle.Flags; only the game's backend sets them.</summary>
    [Flags]
    public enum LobbyMemberFlags : uint
    {
        None = 0,
        CanLinkLobby = 1,
    }

    /// <summary>The platform's channel types that messaging meets.</summary>
    public enum ChannelType
    {
        GuildText = 0,
        Dm = 1,
        GuildVoice = 2,
        GroupDm = 3,
        GuildCategory = 4,
        GuildNews = 5,
        GuildStore = 6,
        GuildNewsThread = 10,
        GuildPublicThread = 11,
        GuildPrivateThread = 12,
        GuildStageVoice = 13,
        GuildDirectory = 14,
        GuildForum = 15,
        GuildMedia = 16,
        Lobby = 17,
        EphemeralDm = 18,
    }

    /// <summary>How the microphone decides what to send: voice activity detection or push-to-talk.</summary>
    public enum AudioModeType
    {
        Uninit = 0,
        VAD = 1,
        PTT = 2,
    }
}
