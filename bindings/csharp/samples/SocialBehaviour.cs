// The social side of a Unity game, as one MonoBehaviour: it logs the player in (PKCE, through the desktop
// client or the browser), connects, joins the match lobby and says hello in its chat. The sample project
// (bindings/csharp/samples) runs it under Mono against the emulator, calling Start, Update and OnDestroy as
// Unity does.
// [guide:behaviour]
using Platformpp;
using UnityEngine;

public class SocialBehaviour : MonoBehaviour
{
    // Set in the Inspector. Empty strings keep the platform's own servers; the sample's test points them at
    // the emulator.
    public ulong ApplicationId;
    public string ApiBase = "";
    public string CaFile = "";
    public string IpcName = "";
    public string IpcDirectory = "";
    public string LobbySecret = "match-7";

    // What the game's UI shows.
    public string Status = "logging in";
    public ulong LobbyId;

    Client client;

    void Start()
    {
        client = new Client(new ClientOptions
        {
            ApiBase = ApiBase, CaFile = CaFile, IpcName = IpcName, IpcDirectory = IpcDirectory,
        });
        client.SetApplicationId(ApplicationId);
        client.AddLogCallback((message, severity) => Debug.Log("[platformpp] " + message), LoggingSeverity.Warning);
        client.SetStatusChangedCallback((status, error, detail) =>
        {
            if (status == Client.Status.Ready && LobbyId == 0) JoinLobby();
            if (status == Client.Status.Disconnected && error != Client.Error.None)
                Status = "offline: " + error + " " + detail;
        });
        client.SetMessageCreatedCallback(messageId =>
        {
            var message = client.GetMessageHandle(messageId);
            if (message != null) Debug.Log("chat: " + message.Content);
        });
        LogIn();
    }

    void LogIn()
    {
        var pkce = Client.CreateAuthorizationCodeVerifier();
        var args = new AuthorizationArgs
        {
            Scopes = Client.GetDefaultCommunicationScopes(),
            CodeChallenge = pkce.Challenge,
        };
        client.Authorize(args, (result, code, redirectUri) =>
        {
            if (!result.Successful) { Status = "not logged in: " + result; return; }
            client.GetToken(ApplicationId, code, pkce.Verifier, redirectUri,
                            (tokenResult, accessToken, refreshToken, tokenType, expiresIn, scopes) =>
            {
                if (!tokenResult.Successful) { Status = "not logged in: " + tokenResult; return; }
                client.UpdateToken(tokenType, accessToken, updated => { if (updated.Successful) client.Connect(); });
            });
        });
    }

    void JoinLobby()
    {
        client.CreateOrJoinLobby(LobbySecret, (result, lobbyId) =>
        {
            if (!result.Successful) { Status = "no lobby: " + result; return; }
            LobbyId = lobbyId;
            client.SendLobbyMessage(lobbyId, "hello from Unity", (sent, messageId) =>
            {
                Status = sent.Successful ? "in the lobby" : "chat failed: " + sent;
            });
        });
    }

    // Once a frame, on Unity's main thread: every callback above runs in here.
    void Update()
    {
        if (client != null) client.RunCallbacks();
    }

    // Pending operations end with ClientDestroyed inside Dispose; nothing runs after it.
    void OnDestroy()
    {
        if (client != null) client.Dispose();
        client = null;
    }
}
// [guide-end]
