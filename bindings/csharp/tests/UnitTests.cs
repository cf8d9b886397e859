using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Platformpp;
using Platformpp.Raw;

namespace Platformpp.Tests
{
    /// <summary>What needs no emulator: the binding against its own rules and the library offline.</summary>
    static class UnitTests
    {
        public static void Run()
        {
            EnumsHaveTheCValues();
            NativeCallsOnlyMarkedStaticMethods();
            EveryImportResolves();
            StaticsAndPkce();
            OperationsEndOnceOnTheGameThread();
            DisposeCompletesWhatIsPending();
            CallbackExceptionsReachRunCallbacks();
            TheFinalizerDestroysOnlyIdleClients();
            WebhookVerifyRefusesWhatIsNotSigned();
            InteractionVerifyReadsWhatIsSigned();
            InteractionsTests.EndpointAnswersOverHttp();
        }

        static string Normalize(string name)
        {
            return name.Replace("_", "").ToLowerInvariant();
        }

        static void EnumsHaveTheCValues()
        {
            Check.Step("the idiomatic enums have the values of the C enums");
            var pairs = new Dictionary<Type, Type>
            {
                { typeof(ErrorType), typeof(platformpp_error_type) },
                { typeof(LoggingSeverity), typeof(platformpp_logging_severity) },
                { typeof(AuthorizationTokenType), typeof(platformpp_authorization_token_type) },
                { typeof(AuthenticationCodeChallengeMethod), typeof(platformpp_authentication_code_challenge_method) },
                { typeof(IntegrationType), typeof(platformpp_integration_type) },
                { typeof(AuthenticationExternalAuthType), typeof(platformpp_authentication_external_auth_type) },
                { typeof(Client.Status), typeof(platformpp_client_status) },
                { typeof(Client.Error), typeof(platformpp_client_error) },
                { typeof(Client.Thread), typeof(platformpp_client_thread) },
                { typeof(ActivityTypes), typeof(platformpp_activity_type) },
                { typeof(StatusDisplayTypes), typeof(platformpp_status_display_type) },
                { typeof(ActivityActionTypes), typeof(platformpp_activity_action_type) },
                { typeof(ActivityPartyPrivacy), typeof(platformpp_activity_party_privacy) },
                { typeof(StatusType), typeof(platformpp_status_type) },
                { typeof(RelationshipType), typeof(platformpp_relationship_type) },
                { typeof(RelationshipGroupType), typeof(platformpp_relationship_group_type) },
                { typeof(UserHandle.AvatarType), typeof(platformpp_avatar_type) },
                { typeof(LobbyMemberFlags), typeof(platformpp_lobby_member_flags) },
                { typeof(ChannelType), typeof(platformpp_channel_type) },
                { typeof(AudioModeType), typeof(platformpp_audio_mode_type) },
                { typeof(Call.Status), typeof(platformpp_call_status) },
                { typeof(Call.Error), typeof(platformpp_call_error) },
                { typeof(SkuType), typeof(platformpp_sku_type) },
                { typeof(EntitlementType), typeof(platformpp_entitlement_type) },
                { typeof(SubscriptionStatus), typeof(platformpp_subscription_status) },
                { typeof(WebhookEvent.Kind), typeof(platformpp_webhook_event_kind) },
                { typeof(WebhookEvent.DataType), typeof(platformpp_webhook_event_data_type) },
                { typeof(Interaction.InteractionType), typeof(platformpp_interaction_type) },
            };
            // C enums that the idiomatic layer turns into methods or properties instead.
            // The Game Stats Widget's enums belong to functions the binding does not call (not-called.tsv).
            var noEnum = new HashSet<Type> { typeof(platformpp_activity_asset), typeof(platformpp_relationship_action),
                                             typeof(platformpp_game_stats_text_field), typeof(platformpp_game_stats_count_field),
                                             typeof(platformpp_game_stats_dynamic_field_type) };
            foreach (var raw in typeof(Native).Assembly.GetTypes().Where(t => t.IsEnum && t.Namespace == "Platformpp.Raw"))
                Check.That(pairs.ContainsValue(raw) || noEnum.Contains(raw), raw.Name + " has an idiomatic enum");
            foreach (var pair in pairs)
            {
                string prefix = pair.Value.Name.ToUpperInvariant() + "_";
                var idiomatic = Enum.GetNames(pair.Key).ToDictionary(Normalize, n => Convert.ToInt64(Enum.Parse(pair.Key, n)));
                foreach (var name in Enum.GetNames(pair.Value))
                {
                    string member = name.Substring(prefix.Length);
                    if (member == "FORCE_INT32" || (pair.Key == typeof(StatusDisplayTypes) && member == "UNSET")) continue;
                    long value;
                    Check.That(idiomatic.TryGetValue(Normalize(member), out value), pair.Key + " has " + name);
                    Check.That(value == Convert.ToInt64(Enum.Parse(pair.Value, name)),
                               pair.Key + " and " + name + " have the same value");
                }
                int cCount = Enum.GetNames(pair.Value).Count(n => !n.EndsWith("FORCE_INT32") && !n.EndsWith("_UNSET"));
                // ChannelType is the C++ enum, a superset of the C one (the C ABI passes the value through).
                Check.That(pair.Key == typeof(ChannelType) || idiomatic.Count == cCount,
                           pair.Key + " has no value the C enum lacks");
            }
        }

        static void NativeCallsOnlyMarkedStaticMethods()
        {
            Check.Step("native code holds only static delegates of static methods marked [MonoPInvokeCallback]");
            var assembly = typeof(Client).Assembly;
            var rawDelegates = assembly.GetTypes().Where(t => t.Namespace == "Platformpp.Raw" &&
                                                             typeof(Delegate).IsAssignableFrom(t)).ToList();
            var kept = new HashSet<Type>();
            foreach (var type in assembly.GetTypes())
                foreach (var field in type.GetFields(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
                {
                    // Skips the compiler's own caches of method-group conversions (mcs names them <>f__mg$cache).
                    if (!rawDelegates.Contains(field.FieldType) || field.Name.StartsWith("<")) continue;
                    var fn = (Delegate)field.GetValue(null);
                    Check.That(field.IsInitOnly && fn != null, type.Name + "." + field.Name + " is static readonly and set");
                    if (fn == null) continue;
                    Check.That(fn.Method.IsStatic && fn.Target == null, field.Name + " points at a static method");
                    var mark = fn.Method.GetCustomAttributes(false).FirstOrDefault(a => a.GetType().Name == "MonoPInvokeCallbackAttribute");
                    Check.That(mark != null, fn.Method.Name + " is marked [MonoPInvokeCallback]");
                    if (mark != null)
                        Check.That((Type)mark.GetType().GetProperty("Type").GetValue(mark, null) == field.FieldType,
                                   fn.Method.Name + "'s attribute names " + field.FieldType.Name);
                    kept.Add(field.FieldType);
                }
            // Callbacks of the game server's functions the binding does not call (not-called.tsv) need none.
            var notCalled = new HashSet<Type> { typeof(platformpp_webhook_event_fn), typeof(platformpp_game_stats_profile_fn) };
            foreach (var method in typeof(Native).GetMethods(BindingFlags.Static | BindingFlags.Public))
                foreach (var p in method.GetParameters())
                    if (rawDelegates.Contains(p.ParameterType) && !notCalled.Contains(p.ParameterType))
                        Check.That(kept.Contains(p.ParameterType),
                                   "a static " + p.ParameterType.Name + " exists for " + method.Name);
            foreach (var type in assembly.GetTypes())
                foreach (var method in type.GetMethods(BindingFlags.Static | BindingFlags.Instance | BindingFlags.NonPublic |
                                                       BindingFlags.Public | BindingFlags.DeclaredOnly))
                    if (method.GetCustomAttributes(false).Any(a => a.GetType().Name == "MonoPInvokeCallbackAttribute"))
                        Check.That(method.IsStatic, method.Name + " is static");
        }

        static void EveryImportResolves()
        {
            Check.Step("every [DllImport] of the raw layer resolves in libplatformpp_c");
            int count = 0;
            foreach (var method in typeof(Native).GetMethods(BindingFlags.Static | BindingFlags.Public))
            {
                if ((method.Attributes & MethodAttributes.PinvokeImpl) == 0) continue;
                try
                {
                    Marshal.Prelink(method);
                    count++;
                }
                catch (Exception e)
                {
                    Check.That(false, method.Name + ": " + e.GetType().Name);
                }
            }
            Console.WriteLine("  {0} entry points", count);
            Check.That(count > 250, "the raw layer imports the C ABI");
        }

        static void StaticsAndPkce()
        {
            Check.Step("version, scopes, PKCE");
            Check.That(Client.GetVersionString() ==
                           string.Format("{0}.{1}.{2}", Client.GetVersionMajor(), Client.GetVersionMinor(), Client.GetVersionPatch()),
                       "the version string matches its parts");
            Check.That(Client.GetDefaultCommunicationScopes().Contains("sdk.social_layer"), "communication scopes");
            Check.That(Client.GetDefaultPresenceScopes().Length > 0, "presence scopes");
            var a = Client.CreateAuthorizationCodeVerifier();
            var b = Client.CreateAuthorizationCodeVerifier();
            Check.That(a.Verifier.Length == 43 && a.Challenge.Challenge.Length == 43, "a verifier and its S256 challenge");
            Check.That(a.Challenge.Method == AuthenticationCodeChallengeMethod.S256, "S256");
            Check.That(a.Verifier != b.Verifier, "fresh verifiers differ");
            Check.That(Call.StatusToString(Call.Status.Connected) == "Connected", "Call.StatusToString");
            Check.That(Call.ErrorToString(Call.Error.Forbidden) == "Forbidden", "Call.ErrorToString");
            var defaults = new ClientOptions();
            Check.That(!defaults.ChannelObfuscationOptIn && defaults.IpcEnabled && defaults.UseSystemCertificates &&
                           string.IsNullOrEmpty(defaults.ApiBase),
                       "ClientOptions' defaults: the platform's own, without its testing switch");
            using (var optedIn = new Client(new ClientOptions { ChannelObfuscationOptIn = true, IpcEnabled = false }))
            {
                Check.That(optedIn != null, "a Client opting in to channel obfuscation is created (api_version 2)");
            }
        }

        // A TCP port that accepts connections (the kernel's backlog) and never answers: requests to it stay in
        // flight until their timeout, which the tests never reach.
        static readonly System.Net.Sockets.TcpListener Silent = StartSilent();

        static System.Net.Sockets.TcpListener StartSilent()
        {
            var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
            listener.Start(512);
            return listener;
        }

        /// <summary>A client whose requests never end by themselves, and no desktop client.</summary>
        static Client Offline()
        {
            int port = ((System.Net.IPEndPoint)Silent.LocalEndpoint).Port;
            var client = new Client(new ClientOptions { ApiBase = "https://127.0.0.1:" + port + "/api", IpcEnabled = false });
            client.SetApplicationId(1234);
            return client;
        }

        static void OperationsEndOnceOnTheGameThread()
        {
            Check.Step("an operation ends once, inside RunCallbacks, on this thread; UTF-8 both ways");
            int thread = System.Threading.Thread.CurrentThread.ManagedThreadId;
            int callbacksBefore = Diagnostics.LiveCallbackCount;
            using (var client = Offline())
            {
                Check.That(client.GetApplicationId() == 1234, "application id");
                client.SetHttpRequestTimeout(1500);
                Check.That(client.GetHttpRequestTimeout() == 1500, "HTTP timeout");
                Check.That(client.GetStatus() == Client.Status.Disconnected, "disconnected");
                // "é" is one character in two bytes: State needs 2 to 128 characters, so the library counted
                // characters in the UTF-8 it got.
                var results = new List<ClientResult>();
                var invalid = new Activity { Type = ActivityTypes.Playing, State = "é" };
                client.UpdateRichPresence(invalid, r => {
                    Check.That(System.Threading.Thread.CurrentThread.ManagedThreadId == thread, "on the game thread");
                    results.Add(r);
                });
                Check.That(results.Count == 0, "not before RunCallbacks");
                var pump = new Pump(client);
                Check.Require(pump.Until(() => results.Count == 1), "the validation error arrives");
                Check.That(results[0].Type == ErrorType.ValidationError, "ValidationError: " + results[0]);
                Check.That(results[0].FieldErrors.Count > 0 && results[0].FieldErrors[0].Path == "activity.state",
                           "the field error names activity.state");
                var valid = new Activity { Type = ActivityTypes.Playing, State = "Ärena ☃ 🎮", Details = "ok" };
                client.UpdateRichPresence(valid, r => results.Add(r));
                Check.Require(pump.Until(() => results.Count == 2), "the second result arrives");
                Check.That(results[1].Type != ErrorType.ValidationError, "multi-byte text is valid: " + results[1]);
                pump.For(0.05);
                Check.That(results.Count == 2, "each callback ran once");
                var logged = new List<string>();
                client.AddLogCallback((m, s) => logged.Add(m), LoggingSeverity.Verbose);
            }
            Check.That(Diagnostics.LiveCallbackCount == callbacksBefore, "every user_data was freed");
        }

        static void DisposeCompletesWhatIsPending()
        {
            Check.Step("Dispose completes pending operations with ClientDestroyed, also from inside a callback");
            ulong clientsBefore = Diagnostics.NativeLiveClientCount;
            var client = Offline();
            Check.That(Diagnostics.NativeLiveClientCount == clientsBefore + 1, "one more native client");
            var seen = new List<ErrorType>();
            client.FetchCurrentUser(AuthorizationTokenType.Bearer, "token", (r, id, name) => seen.Add(r.Type));
            client.GetUserGuilds((r, guilds) => seen.Add(r.Type));
            client.Dispose();
            Check.That(seen.Count == 2 && seen.All(t => t == ErrorType.ClientDestroyed),
                       "both ended inside Dispose with ClientDestroyed: " + string.Join(",", seen));
            Check.That(client.IsDisposed, "disposed");
            client.Dispose();
            bool threw = false;
            try
            {
                client.Connect();
            }
            catch (ObjectDisposedException)
            {
                threw = true;
            }
            Check.That(threw, "a disposed client throws ObjectDisposedException");

            var inner = Offline();
            var order = new List<string>();
            var invalid = new Activity { State = "x" };
            inner.UpdateRichPresence(invalid, r => {
                order.Add("first " + r.Type);
                inner.Dispose();
            });
            inner.FetchCurrentUser(AuthorizationTokenType.Bearer, "token", (r, id, name) => order.Add("second " + r.Type));
            new Pump(inner).Until(() => inner.IsDisposed);
            Check.That(order.Count == 2 && order[0] == "first ValidationError" && order[1] == "second ClientDestroyed",
                       "disposed inside a callback: " + string.Join(", ", order));
            Check.That(Diagnostics.NativeLiveClientCount == clientsBefore, "the native clients are gone");
        }

        static void CallbackExceptionsReachRunCallbacks()
        {
            Check.Step("a callback's exception is thrown by RunCallbacks, and the later callbacks still run");
            using (var client = Offline())
            {
                bool secondRan = false;
                client.UpdateRichPresence(new Activity { State = "x" }, r => { throw new InvalidOperationException("boom"); });
                client.UpdateRichPresence(new Activity { State = "y" }, r => secondRan = true);
                Exception caught = null;
                var clock = System.Diagnostics.Stopwatch.StartNew();
                while (caught == null && clock.Elapsed.TotalSeconds < 5)
                {
                    client.WaitForCallbacks(5);
                    try
                    {
                        client.RunCallbacks();
                    }
                    catch (InvalidOperationException e)
                    {
                        caught = e;
                    }
                }
                Check.That(caught != null && caught.Message == "boom", "RunCallbacks rethrew it");
                new Pump(client).Until(() => secondRan, 2);
                Check.That(secondRan, "the next callback ran");
            }
        }

        static void TheFinalizerDestroysOnlyIdleClients()
        {
            Check.Step("the GC destroys a dropped client that holds no callback; no callback runs on its thread");
            ulong before = Diagnostics.NativeLiveClientCount;
            // On a thread of their own: Mono scans stacks conservatively, and a stale slot of this one could keep
            // the last client reachable.
            var maker = new System.Threading.Thread(() => MakeAndDrop(5));
            maker.Start();
            maker.Join();
            Check.That(Diagnostics.NativeLiveClientCount == before + 5, "five dropped clients exist until collected");
            for (int i = 0; i < 10 && Diagnostics.NativeLiveClientCount != before; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            Check.That(Diagnostics.NativeLiveClientCount == before,
                       "the finalizer destroyed them (" + Diagnostics.NativeLiveClientCount + " left, " + before + " before)");
        }

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        static void WebhookVerifyRefusesWhatIsNotSigned()
        {
            Check.Step("Webhooks.Verify: a request the key did not sign is refused with 401 and no event");
            // Any 32 bytes are a key; no signature made here matches it (the C test signs with libsodium).
            string key = new string('a', 64);
            var body = System.Text.Encoding.UTF8.GetBytes("{\"version\":1,\"application_id\":\"1\",\"type\":0}");
            var forged = Webhooks.Verify(key, new string('b', 128), "1795000000", body, 1795000000);
            Check.That(forged.Status == 401, "a forged signature: 401 (got " + forged.Status + ")");
            Check.That(forged.Event == null, "a forged signature: no event");
            var badKey = Webhooks.Verify("00", new string('b', 128), "1795000000", body, 1795000000);
            Check.That(badKey.Status == 401 && badKey.Event == null, "a key that is not 64 hex digits: 401");
            var nothing = Webhooks.Verify(null, null, null, null);
            Check.That(nothing.Status == 401 && nothing.Event == null, "nulls: 401, never a crash");
        }

        // The platform's signature, made here with libsodium (the library the SDK itself links).
        [DllImport("libsodium")] static extern int sodium_init();
        [DllImport("libsodium")] static extern int crypto_sign_seed_keypair(byte[] publicKey, byte[] secretKey, byte[] seed);
        [DllImport("libsodium")]
        static extern int crypto_sign_detached(byte[] signature, IntPtr signatureLength, byte[] message, ulong length,
                                               byte[] secretKey);

        static string Hex(byte[] bytes)
        {
            return BitConverter.ToString(bytes).Replace("-", "").ToLowerInvariant();
        }

        static void InteractionVerifyReadsWhatIsSigned()
        {
            Check.Step("Interactions.Verify: a signed interaction is read, a forged or stale one refused");
            Check.That(sodium_init() >= 0, "libsodium initialised");
            var seed = new byte[32];
            for (int i = 0; i < seed.Length; i++) seed[i] = (byte)(i + 7);
            var publicKey = new byte[32];
            var secretKey = new byte[64];
            crypto_sign_seed_keypair(publicKey, secretKey, seed);
            string key = Hex(publicKey);
            Func<string, string, string> sign = (timestamp, text) =>
            {
                var message = System.Text.Encoding.UTF8.GetBytes(timestamp + text);
                var signature = new byte[64];
                crypto_sign_detached(signature, IntPtr.Zero, message, (ulong)message.Length, secretKey);
                return Hex(signature);
            };
            const string command = "{\"id\":\"78\",\"application_id\":\"1234\",\"type\":2,\"token\":\"tok\",\"version\":1," +
                                   "\"guild_id\":\"500\",\"channel_id\":\"600\",\"locale\":\"fr\",\"app_permissions\":\"0\"," +
                                   "\"member\":{\"user\":{\"id\":\"42\",\"username\":\"ada\"},\"roles\":[]}," +
                                   "\"data\":{\"id\":\"9\",\"name\":\"stats\",\"type\":1}}";
            var body = System.Text.Encoding.UTF8.GetBytes(command);
            var read = Interactions.Verify(key, sign("1795000000", command), "1795000000", body, 1795000000);
            Check.That(read.Status == 200 && read.Interaction != null, "a signed command: 200 (got " + read.Status + ")");
            if (read.Interaction != null)
            {
                var i = read.Interaction;
                Check.That(i.Type == Interaction.InteractionType.ApplicationCommand && i.Id == 78 && i.ApplicationId == 1234,
                           "its type and ids");
                Check.That(i.GuildId == 500 && i.ChannelId == 600 && i.UserId == 42 && i.Locale == "fr", "where and who");
                Check.That(i.CommandName == "stats" && i.CustomId == "" && i.Token == "tok", "the command and the token");
                Check.That(i.Json.Contains("\"member\""), "the whole interaction as JSON");
            }
            var forged = Interactions.Verify(key, sign("1795000000", command + " "), "1795000000", body, 1795000000);
            Check.That(forged.Status == 401 && forged.Interaction == null, "a signature of another body: 401");
            Check.That(Interactions.Verify(key, sign("1795000000", command), "1795000000", body, 1795000300).Status == 200,
                       "300 s late: still taken");
            Check.That(Interactions.Verify(key, sign("1795000000", command), "1795000000", body, 1795000301).Status == 401,
                       "301 s late: refused as a replay");
            const string ping = "{\"id\":\"1\",\"application_id\":\"1234\",\"type\":1,\"token\":\"t\",\"version\":1}";
            var pinged = Interactions.Verify(key, sign("1795000000", ping), "1795000000",
                                             System.Text.Encoding.UTF8.GetBytes(ping), 1795000000);
            Check.That(pinged.Status == 200 && pinged.Interaction != null &&
                       pinged.Interaction.Type == Interaction.InteractionType.Ping, "a PING: 200, answered with PongBody");
            Check.That(Interactions.PongBody == "{\"type\":1}", "PongBody is {\"type\":1}");
            const string other = "{\"type\":2}";
            var notOne = Interactions.Verify(key, sign("1795000000", other), "1795000000",
                                             System.Text.Encoding.UTF8.GetBytes(other), 1795000000);
            Check.That(notOne.Status == 400 && notOne.Interaction == null, "a signed body that is no interaction: 400");
            Check.That(Interactions.Verify(null, null, null, null).Status == 401, "nulls: 401, never a crash");
        }

        static void MakeAndDrop(int n)
        {
            for (int i = 0; i < n; i++) Offline();
        }
    }
}
