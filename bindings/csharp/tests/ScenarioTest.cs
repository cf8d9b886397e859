using System;
using System.Collections.Generic;
using System.Linq;
using Platformpp;

namespace Platformpp.Tests
{
    /// <summary>
    /// Two players through the C# binding against a real emulator: Alice logs in with PKCE (the emulator's
    /// desktop client consents on IPC), Bob with a token, Carol as a provisional account; Alice befriends Bob, shows
    /// her presence and invites him, they meet in a lobby, chat (lobby and DMs), and talk: Alice's 440 Hz tone is
    /// measured at Bob's end. Last, Bob's client is disposed with operations in flight. With --gc-stress every
    /// callback and every frame collects garbage and waits for the finalizers.
    /// </summary>
    sealed class ScenarioTest
    {
        readonly Seed seed;
        readonly ulong app, aliceId, bobId;
        Client a, b;
        Pump pump;

        public ScenarioTest(Seed seed)
        {
            this.seed = seed;
            app = seed.Id("app_id");
            aliceId = seed.Id("alice_id");
            bobId = seed.Id("bob_id");
        }

        static Action<T1> S<T1>(Action<T1> f) { return Stress.S(f); }
        static Action<T1, T2> S<T1, T2>(Action<T1, T2> f) { return Stress.S(f); }
        static Action<T1, T2, T3> S<T1, T2, T3>(Action<T1, T2, T3> f) { return Stress.S(f); }

        public void Run()
        {
            ulong nativeBefore = Diagnostics.NativeLiveClientCount;
            int callbacksBefore = Diagnostics.LiveCallbackCount;
            try
            {
                LogIn();
                Connect();
                Befriend();
                Presence();
                UsersAndGuilds();
                ulong lobby = Lobby();
                Chat(lobby);
                Voice(lobby);
                DisposeWithOperationsInFlight(lobby);
            }
            finally
            {
                if (a != null) Stress.Deliver(a.Dispose);
                if (b != null) Stress.Deliver(b.Dispose);
            }
            for (int i = 0; i < 5 && Diagnostics.LiveCallbackCount != callbacksBefore; i++)
            {
                GC.Collect();  // Calls the test dropped release their callbacks through their finalizers
                GC.WaitForPendingFinalizers();
            }
            Check.That(Diagnostics.NativeLiveClientCount == nativeBefore, "no native client is left");
            Check.That(Diagnostics.LiveCallbackCount == callbacksBefore,
                       "every user_data was freed once (" + Diagnostics.LiveCallbackCount + " left)");
            Console.WriteLine("  {0} game-thread callbacks checked", Stress.CallbacksChecked);
        }

        Client NewClient(bool ipc, string name)
        {
            var client = new Client(seed.Options(ipc));
            client.SetApplicationId(app);
            client.AddLogCallback(S<string, LoggingSeverity>((m, s) => Console.WriteLine("  [" + name + "] " + m)),
                                  LoggingSeverity.Warning);
            return client;
        }

        void LogIn()
        {
            Check.Step("Alice logs in with PKCE through the desktop client; Bob with a token; Carol provisionally");
            a = NewClient(true, "Alice");
            pump = new Pump(a);
            var pkce = Client.CreateAuthorizationCodeVerifier();
            var args = new AuthorizationArgs { Scopes = Client.GetDefaultCommunicationScopes(), CodeChallenge = pkce.Challenge };
            ClientResult authorized = null;
            string code = null, redirect = null;
            a.Authorize(args, S<ClientResult, string, string>((r, c, u) => { authorized = r; code = c; redirect = u; }));
            Check.Require(pump.Until(() => authorized != null, 15) && authorized.Successful, "Authorize: " + authorized);

            string access = null, refresh = null;
            ClientResult token = null;
            a.GetToken(app, code, pkce.Verifier, redirect,
                       Stress.S<ClientResult, string, string, AuthorizationTokenType, int, string>(
                           (r, ac, re, type, expires, scopes) => {
                               token = r;
                               access = ac;
                               refresh = re;
                               Check.That(type == AuthorizationTokenType.Bearer && expires > 0, "a Bearer token that expires");
                           }));
            Check.Require(pump.Until(() => token != null) && token.Successful && access.Length > 0, "GetToken: " + token);
            ClientResult refreshed = null;
            a.RefreshToken(app, refresh, Stress.S<ClientResult, string, string, AuthorizationTokenType, int, string>(
                                             (r, ac, re, type, expires, scopes) => { refreshed = r; access = ac; }));
            Check.Require(pump.Until(() => refreshed != null) && refreshed.Successful, "RefreshToken: " + refreshed);
            ClientResult updated = null;
            a.UpdateToken(AuthorizationTokenType.Bearer, access, S<ClientResult>(r => updated = r));
            Check.Require(pump.Until(() => updated != null) && updated.Successful, "UpdateToken");
            Check.That(a.IsAuthenticated(), "Alice's client is authenticated");
            ulong fetchedId = 0;
            string fetchedName = null;
            a.FetchCurrentUser(AuthorizationTokenType.Bearer, access, S<ClientResult, ulong, string>((r, id, n) => {
                fetchedId = id;
                fetchedName = n;
            }));
            Check.That(pump.Until(() => fetchedName != null) && fetchedId == aliceId && fetchedName == seed["alice_name"],
                       "the token is Alice's");

            b = NewClient(false, "Bob");
            b.UpdateToken(AuthorizationTokenType.Bearer, seed["bob_token"], null);
            pump = new Pump(a, b);

            using (var c = NewClient(false, "Carol"))
            {
                var cPump = new Pump(c);
                string carolToken = null;
                c.GetProvisionalToken(app, AuthenticationExternalAuthType.OIDC, "ext-carol-" + Environment.TickCount,
                                      Stress.S<ClientResult, string, string, AuthorizationTokenType, int, string>(
                                          (r, ac, re, type, expires, scopes) => carolToken = r.Successful ? ac : ""));
                Check.Require(cPump.Until(() => carolToken != null) && carolToken.Length > 0, "a provisional token");
                c.UpdateToken(AuthorizationTokenType.Bearer, carolToken, null);
                ClientResult renamed = null;
                c.UpdateProvisionalAccountDisplayName("Carol ✓", S<ClientResult>(r => renamed = r));
                Check.That(cPump.Until(() => renamed != null) && renamed.Successful, "Carol renamed: " + renamed);
                Stress.Deliver(c.Dispose);
            }
        }

        void Connect()
        {
            Check.Step("both connect and reach Ready");
            Client.Status aStatus = Client.Status.Disconnected, bStatus = Client.Status.Disconnected;
            a.SetStatusChangedCallback(S<Client.Status, Client.Error, int>((s, e, d) => aStatus = s));
            b.SetStatusChangedCallback(S<Client.Status, Client.Error, int>((s, e, d) => bStatus = s));
            a.Connect();
            b.Connect();
            Check.Require(pump.Until(() => aStatus == Client.Status.Ready && bStatus == Client.Status.Ready, 15), "Ready");
            var me = a.GetCurrentUserV2();
            Check.That(me != null && me.Id == aliceId && me.Username == seed["alice_name"], "GetCurrentUserV2 is Alice");
            Check.That(me != null && me.AvatarUrl(UserHandle.AvatarType.Gif, UserHandle.AvatarType.Png).StartsWith("https://"),
                       "an avatar URL");
        }

        void Befriend()
        {
            Check.Step("Alice sends Bob a friend request by name; Bob accepts");
            bool bobSawRequest = false;
            b.SetRelationshipCreatedCallback(S<ulong, bool>((id, discord) => { if (id == aliceId && discord) bobSawRequest = true; }));
            int groupsUpdated = 0;
            a.SetRelationshipGroupsUpdatedCallback(S<ulong>(id => groupsUpdated++));
            ClientResult sent = null;
            a.SendDiscordFriendRequest(seed["bob_name"], S<ClientResult>(r => sent = r));
            Check.Require(pump.Until(() => sent != null && bobSawRequest) && sent.Successful, "the request arrives: " + sent);
            Check.That(b.GetRelationshipHandle(aliceId).DiscordRelationshipType == RelationshipType.PendingIncoming,
                       "Bob has a pending incoming request");
            Check.That(a.GetRelationshipHandle(bobId).DiscordRelationshipType == RelationshipType.PendingOutgoing,
                       "Alice has a pending outgoing request");
            ClientResult accepted = null;
            b.AcceptDiscordFriendRequest(aliceId, S<ClientResult>(r => accepted = r));
            Check.Require(pump.Until(() => accepted != null &&
                                           a.GetRelationshipHandle(bobId).DiscordRelationshipType == RelationshipType.Friend &&
                                           b.GetRelationshipHandle(aliceId).DiscordRelationshipType == RelationshipType.Friend),
                          "they are friends");
            var bobsFriend = b.GetRelationships().FirstOrDefault(r => r.Id == aliceId);
            Check.That(bobsFriend != null && bobsFriend.User != null && bobsFriend.User.Username == seed["alice_name"],
                       "Bob's relationships list Alice");
            Check.That(a.SearchFriendsByUsername(seed["bob_name"].Substring(0, 4)).Any(u => u.Id == bobId),
                       "Alice finds Bob by name");
            Check.That(pump.Until(() => groupsUpdated > 0), "Alice's friends list groups changed");
        }

        void Presence()
        {
            Check.Step("Alice shows her rich presence (UTF-8), Bob sees it; she invites him and he accepts");
            var activity = new Activity
            {
                Type = ActivityTypes.Playing,
                State = "In the arena ⚔",
                Details = "Wave 3 — ünïcödé",
                Party = new ActivityParty { Id = "arena-42", CurrentSize = 1, MaxSize = 4 },
                Secrets = new ActivitySecrets { Join = "join-arena-42" },
            };
            activity.AddButton(new ActivityButton { Label = "Watch", Url = "https://example.com/watch" });
            ClientResult shown = null;
            a.UpdateRichPresence(activity, S<ClientResult>(r => shown = r));
            Check.Require(pump.Until(() => shown != null) && shown.Successful, "UpdateRichPresence: " + shown);
            Func<Activity> seen = () => {
                var user = b.GetUser(aliceId);
                return user == null ? null : user.GameActivity;
            };
            Check.Require(pump.Until(() => seen() != null && seen().State == activity.State, 15), "Bob sees Alice's state");
            Check.That(seen().Details == activity.Details, "the details, UTF-8 both ways");
            Check.That(seen().Party != null && seen().Party.Id == "arena-42" && seen().Party.MaxSize == 4, "the party");
            Check.That(b.GetRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame).Any(r => r.Id == aliceId),
                       "Alice is in Bob's 'playing this game' group");

            ActivityInvite invite = null;
            b.SetActivityInviteCreatedCallback(S<ActivityInvite>(i => invite = i));
            ClientResult invited = null;
            a.SendActivityInvite(bobId, "come along", S<ClientResult>(r => invited = r));
            // Bob's invite and Alice's callback come in either order: wait for both.
            Check.Require(pump.Until(() => invite != null && invited != null) && invited.Successful, "the invite arrives");
            Check.That(invite.SenderId == aliceId && invite.PartyId == "arena-42" && invite.Type == ActivityActionTypes.Join &&
                       invite.IsValid, "an invite from Alice to her party");
            GC.Collect();  // the invite keeps its native copy
            string secret = null;
            b.AcceptActivityInvite(invite, S<ClientResult, string>((r, s) => secret = r.Successful ? s : "failed: " + r));
            Check.That(pump.Until(() => secret != null) && secret == "join-arena-42", "Bob gets the join secret: " + secret);
            invite.Dispose();

            ClientResult refused = null;
            a.UpdateRichPresence(new Activity { State = "x" }, S<ClientResult>(r => refused = r));
            Check.That(pump.Until(() => refused != null) && refused.Type == ErrorType.ValidationError &&
                       refused.FieldErrors.Any(f => f.Path == "activity.state"), "a 1-character state is refused");
        }

        void UsersAndGuilds()
        {
            Check.Step("Alice's guilds and a guild's channels");
            List<GuildMinimal> guilds = null;
            a.GetUserGuilds(S<ClientResult, List<GuildMinimal>>((r, g) => guilds = g));
            Check.That(pump.Until(() => guilds != null) && guilds.Any(g => g.Id == seed.Id("guild_id") && g.Name == "C# Guild"),
                       "GetUserGuilds lists the guild");
            List<GuildChannel> channels = null;
            a.GetGuildChannels(seed.Id("guild_id"), S<ClientResult, List<GuildChannel>>((r, c) => channels = c));
            Check.That(pump.Until(() => channels != null) && channels.Any(c => c.Name == "general" && c.Type == 0),
                       "GetGuildChannels lists its text channel");
            var bob = a.GetUser(bobId);
            Check.That(bob != null && bob.Username == seed["bob_name"] && bob.Relationship == RelationshipType.Friend,
                       "GetUser(Bob)");
        }

        ulong Lobby()
        {
            Check.Step("Alice creates a lobby with metadata; Bob joins it");
            ulong aLobby = 0, bLobby = 0;
            bool bobAdded = false;
            a.SetLobbyMemberAddedCallback(S<ulong, ulong>((l, m) => { if (m == bobId) bobAdded = true; }));
            a.CreateOrJoinLobbyWithMetadata("cs-arena", new Dictionary<string, string> { { "map", "harbor ⚓" } },
                                            new Dictionary<string, string> { { "team", "red" } },
                                            S<ClientResult, ulong>((r, id) => aLobby = r.Successful ? id : 1));
            Check.Require(pump.Until(() => aLobby != 0) && aLobby != 1, "Alice's lobby");
            b.CreateOrJoinLobby("cs-arena", S<ClientResult, ulong>((r, id) => bLobby = r.Successful ? id : 1));
            Check.Require(pump.Until(() => bLobby != 0 && bobAdded) && bLobby == aLobby, "Bob joined the same lobby");
            var lobby = a.GetLobbyHandle(aLobby);
            Check.That(lobby != null && lobby.Metadata["map"] == "harbor ⚓", "the lobby's metadata");
            Check.That(lobby != null && lobby.LobbyMemberIds().Contains(aliceId) && lobby.LobbyMemberIds().Contains(bobId),
                       "both are members");
            var alice = lobby == null ? null : lobby.GetLobbyMemberHandle(aliceId);
            Check.That(alice != null && alice.Metadata["team"] == "red" && alice.User != null, "Alice's member metadata");
            Check.That(a.GetLobbyIds().Contains(aLobby), "GetLobbyIds");
            return aLobby;
        }

        void Chat(ulong lobby)
        {
            Check.Step("they chat in the lobby and in DMs");
            var bobSees = new List<ulong>();
            var aliceSees = new List<ulong>();
            b.SetMessageCreatedCallback(S<ulong>(id => bobSees.Add(id)));
            a.SetMessageCreatedCallback(S<ulong>(id => aliceSees.Add(id)));
            ulong first = 0;
            a.SendLobbyMessage(lobby, "gl hf ✓", S<ClientResult, ulong>((r, id) => first = r.Successful ? id : 1));
            Check.Require(pump.Until(() => first > 1 && bobSees.Contains(first)), "Bob gets Alice's message");
            var m = b.GetMessageHandle(first);
            Check.That(m != null && m.Content == "gl hf ✓" && m.AuthorId == aliceId && m.LobbyId == lobby,
                       "its content (UTF-8), author and lobby");
            ulong reply = 0;
            b.SendLobbyMessageWithMetadata(lobby, "ready 👍", new Dictionary<string, string> { { "emote", "thumbs" } },
                                           S<ClientResult, ulong>((r, id) => reply = r.Successful ? id : 1));
            Check.Require(pump.Until(() => reply > 1 && aliceSees.Contains(reply)), "Alice gets Bob's reply");
            var r2 = a.GetMessageHandle(reply);
            Check.That(r2 != null && r2.Metadata["emote"] == "thumbs" && r2.Author != null && r2.Author.Id == bobId,
                       "the reply's metadata and author");
            List<MessageHandle> history = null;
            b.GetLobbyMessagesWithLimit(lobby, 10, S<ClientResult, List<MessageHandle>>((r, list) => history = list));
            Check.That(pump.Until(() => history != null) && history.Select(h => h.Content).SequenceEqual(new[] { "gl hf ✓", "ready 👍" }),
                       "the lobby's history, oldest first");

            ulong dm = 0, updated = 0, deleted = 0;
            b.SetMessageUpdatedCallback(S<ulong>(id => updated = id));
            b.SetMessageDeletedCallback(S<ulong, ulong>((id, channelId) => deleted = id));
            a.SendUserMessage(bobId, "psst", S<ClientResult, ulong>((r, id) => dm = r.Successful ? id : 1));
            Check.Require(pump.Until(() => dm > 1 && bobSees.Contains(dm)), "Bob gets Alice's DM");
            var dmHandle = b.GetMessageHandle(dm);
            var channel = dmHandle == null ? null : b.GetChannelHandle(dmHandle.ChannelId);
            Check.That(channel != null && channel.Type == ChannelType.Dm, "a DM channel");
            ClientResult edited = null;
            a.EditUserMessage(bobId, dm, "psst (edited)", S<ClientResult>(r => edited = r));
            Check.That(pump.Until(() => updated == dm && edited != null) && edited.Successful &&
                           b.GetMessageHandle(dm).Content == "psst (edited)",
                       "Bob sees the edit");
            List<UserMessageSummary> summaries = null;
            b.GetUserMessageSummaries(S<ClientResult, List<UserMessageSummary>>((r, s) => summaries = s));
            Check.That(pump.Until(() => summaries != null) && summaries.Any(s => s.UserId == aliceId), "DM summaries");
            List<MessageHandle> dms = null;
            b.GetUserMessagesWithLimit(aliceId, 5, S<ClientResult, List<MessageHandle>>((r, list) => dms = list));
            Check.That(pump.Until(() => dms != null) && dms.Any(x => x.Id == dm), "the DM history");
            a.DeleteUserMessage(bobId, dm, null);
            Check.That(pump.Until(() => deleted == dm), "Bob sees the DM deleted");
            a.SetShowingChat(true);
        }

        void Voice(ulong lobby)
        {
            Check.Step("a voice call: Alice's 440 Hz tone is measured at Bob's end");
            foreach (var c in new[] { a, b })
            {
                // The test measures the codec and transport path, not the echo canceller.
                c.SetEchoCancellation(false);
                c.SetNoiseSuppression(false);
                c.SetAutomaticGainControl(false);
                Check.That(!c.GetEchoCancellation() && !c.GetNoiseSuppression() && !c.GetAutomaticGainControl(),
                           "audio processing off");
            }
            List<AudioDevice> inputs = null;
            a.GetInputDevices(S<List<AudioDevice>>(list => inputs = list));
            Check.That(pump.Until(() => inputs != null) && inputs.Count == 1 && inputs[0].IsDefault, "the null microphone");

            var tone = new Tone();
            var ear = new Ear(aliceId);
            var aCall = a.StartCallWithAudioCallbacks(lobby, null, tone.Captured);
            var bCall = b.StartCallWithAudioCallbacks(lobby, ear.Received, null);
            Check.Require(aCall != null && bCall != null, "both started the call");
            bool aliceSpoke = false, aliceLeft = false;
            int aliceVoiceStates = 0;
            bCall.SetSpeakingStatusChangedCallback(S<ulong, bool>((u, speaking) => { if (u == aliceId && speaking) aliceSpoke = true; }));
            bCall.SetParticipantChangedCallback(S<ulong, bool>((u, added) => { if (u == aliceId && !added) aliceLeft = true; }));
            bCall.SetOnVoiceStateChangedCallback(S<ulong>(u => { if (u == aliceId) aliceVoiceStates++; }));
            var statuses = new List<Call.Status>();
            aCall.SetStatusChangedCallback(S<Call.Status, Call.Error, int>((s, e, d) => statuses.Add(s)));
            bool aE2ee = false;
            aCall.SetE2eeStatusChangedCallback(S<bool>(on => aE2ee = on));
            // The state changes before the callback that announces it is queued: wait for both.
            Check.Require(pump.Until(() => aCall.GetStatus() == Call.Status.Connected && bCall.GetStatus() == Call.Status.Connected &&
                                           bCall.GetParticipants().Count == 2 && statuses.Contains(Call.Status.Connected), 15),
                          "both are connected and see each other; Alice's status callback saw Connected");
            Check.That(a.GetCall(lobby) != null && a.GetCalls().Count == 1 && a.StartCall(lobby) == null,
                       "GetCall, GetCalls; no second StartCall");

            Check.That(pump.Until(() => aCall.GetE2eeActive() && bCall.GetE2eeActive() && aE2ee &&
                                        aCall.GetEpochVerificationCode() == bCall.GetEpochVerificationCode()),
                       "end-to-end encrypted, the same epoch code");
            Check.That(aCall.GetEpochAuthenticator().Length == 32 && aCall.GetEpochVerificationCode().Length == 30,
                       "the epoch authenticator and its 30 digits");
            string aCode = null, bCode = null;
            aCall.GetPairwiseVerificationCode(bobId, S<string>(code => aCode = code));
            bCall.GetPairwiseVerificationCode(aliceId, S<string>(code => bCode = code));
            Check.That(pump.Until(() => aCode != null && bCode != null) && aCode.Length == 45 && aCode == bCode,
                       "the same 45-digit pairwise code on both sides");

            tone.On = true;
            pump.For(0.5);  // the jitter buffer fills
            ear.Recording = true;
            Check.That(pump.Until(() => ear.Recorded >= 96000), "two seconds of Alice reach Bob");
            var heard = ear.Take();
            // Per 100 ms window: a loaded machine (CI shares its cores) now and then delays a frame, and the jitter
            // buffer conceals it, which spoils that window; the tone must be clear in 3 windows out of 4. Under
            // the GC stress both voice threads stop for a full collection several times per frame, so there
            // half of them will do: what that run checks is that nothing the audio path uses is collected.
            var snr = Ear.ToneSnrDb(heard);
            var sorted = snr.OrderBy(x => x).ToArray();
            int clear = snr.Count(x => x >= 20);
            Console.WriteLine("  Bob heard {0} ms of Alice ({1} frames): 440 Hz at a median SNR of {2:F1} dB, {3} of {4} windows >= 20 dB",
                              heard.Length / 48, ear.Frames, sorted[sorted.Length / 2], clear, snr.Length);
            int needed = Stress.Enabled ? snr.Length / 2 : snr.Length * 3 / 4;
            Check.That(heard.Length >= 96000 && snr.Length == 20 && clear >= needed,
                       "Bob hears Alice's 440 Hz clearly (SNR >= 20 dB in " + needed + " windows of 20)");
            Check.That(pump.Until(() => aliceSpoke), "Bob sees Alice speaking");
            var sent = aCall.GetMediaStatistics();
            var got = bCall.GetMediaStatistics();
            Check.That(sent.FramesEncrypted >= 100 && got.FramesDecrypted >= 100 && got.FramesDecoded >= 100,
                       "the media statistics: Alice's frames encrypted, Bob's decrypted (" + sent.FramesEncrypted +
                       ", " + got.FramesDecrypted + ")");
            Check.That(ear.OnGameThread == 0, "the audio callbacks ran off the game thread");

            aliceVoiceStates = 0;
            aCall.SetSelfMute(true);
            Check.That(aCall.GetSelfMute(), "Alice is muted");
            Check.That(pump.Until(() => aliceVoiceStates > 0 && bCall.GetVoiceStateHandle(aliceId) != null &&
                                        bCall.GetVoiceStateHandle(aliceId).SelfMute),
                       "Bob sees Alice's self mute");
            int ended = 0;
            a.EndCall(lobby, Stress.S(() => ended++));
            Check.That(pump.Until(() => ended == 1 && aliceLeft) && bCall.GetParticipants().Count == 1,
                       "Alice ends the call once; Bob sees her leave");
            Check.That(aCall.GetStatus() == Call.Status.Disconnected && a.GetCall(lobby) == null, "Alice's call is over");
            aCall.Dispose();
            // Bob's call is still running: Dispose takes it down with the client (DisposeWithOperationsInFlight).
            bobsCall = bCall;
        }

        Call bobsCall;

        void DisposeWithOperationsInFlight(ulong lobby)
        {
            Check.Step("Bob's client is disposed with operations in flight and his call running");
            var seen = new List<ErrorType>();
            b.GetUserGuilds(S<ClientResult, List<GuildMinimal>>((r, g) => seen.Add(r.Type)));
            b.LeaveLobby(lobby, S<ClientResult>(r => seen.Add(r.Type)));
            Stress.Deliver(b.Dispose);
            Check.That(seen.Count == 2 && seen.All(t => t == ErrorType.ClientDestroyed),
                       "both ended inside Dispose with ClientDestroyed: " + string.Join(",", seen));
            bool threw = false;
            try
            {
                bobsCall.GetStatus();
            }
            catch (ObjectDisposedException)
            {
                threw = true;
            }
            Check.That(threw, "a Call of a disposed Client refuses calls");
            bobsCall.Dispose();
            b = null;
        }
    }
}
