using System;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using Platformpp;

namespace Platformpp.Tests
{
    /// <summary>
    /// The interactions endpoint from C#: signed POSTs over a real socket, the callback's delegate kept alive by the
    /// endpoint across a forced collection, a message with a premium button and LAUNCH_ACTIVITY as HTTP replies, a
    /// refused answer with its path, and every callback's user_data freed by Dispose.
    /// </summary>
    static class InteractionsTests
    {
        [DllImport("libsodium")] static extern int sodium_init();
        [DllImport("libsodium")] static extern int crypto_sign_seed_keypair(byte[] publicKey, byte[] secretKey, byte[] seed);
        [DllImport("libsodium")]
        static extern int crypto_sign_detached(byte[] signature, IntPtr signatureLength, byte[] message, ulong length,
                                               byte[] secretKey);

        static readonly byte[] SecretKey = new byte[64];

        static string Hex(byte[] bytes)
        {
            return BitConverter.ToString(bytes).Replace("-", "").ToLowerInvariant();
        }

        /// <summary>Sends a signed POST and returns the connection without reading: the answer waits for RunCallbacks.</summary>
        static TcpClient Post(int port, string body)
        {
            string timestamp = DateTimeOffset.UtcNow.ToUnixTimeSeconds().ToString();
            var message = Encoding.UTF8.GetBytes(timestamp + body);
            var signature = new byte[64];
            crypto_sign_detached(signature, IntPtr.Zero, message, (ulong)message.Length, SecretKey);
            var bytes = Encoding.UTF8.GetBytes(body);
            string head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                          "X-Signature-Ed25519: " + Hex(signature) + "\r\nX-Signature-Timestamp: " + timestamp +
                          "\r\nContent-Length: " + bytes.Length + "\r\nConnection: close\r\n\r\n";
            var client = new TcpClient("127.0.0.1", port);
            var stream = client.GetStream();
            var headBytes = Encoding.ASCII.GetBytes(head);
            stream.Write(headBytes, 0, headBytes.Length);
            stream.Write(bytes, 0, bytes.Length);
            return client;
        }

        /// <summary>Reads the whole answer (the server closes the connection).</summary>
        static string Read(TcpClient client)
        {
            using (client)
            {
                var stream = client.GetStream();
                var all = new System.IO.MemoryStream();
                var buffer = new byte[4096];
                int n;
                while ((n = stream.Read(buffer, 0, buffer.Length)) > 0) all.Write(buffer, 0, n);
                return Encoding.UTF8.GetString(all.ToArray());
            }
        }

        static void Pump(InteractionsEndpoint endpoint, Func<bool> until)
        {
            for (int i = 0; i < 50 && !until(); i++) endpoint.WaitForCallbacks(100);
        }

        const string Command =
            "{\"id\":\"78\",\"application_id\":\"1234\",\"type\":2,\"token\":\"tok\",\"version\":1,\"channel_id\":\"600\"," +
            "\"user\":{\"id\":\"42\",\"username\":\"ada\"},\"data\":{\"id\":\"9\",\"name\":\"shop\",\"type\":1}}";
        const string Launch =
            "{\"id\":\"80\",\"application_id\":\"1234\",\"type\":2,\"token\":\"bGF1bmNo\",\"version\":1," +
            "\"user\":{\"id\":\"43\",\"username\":\"bo\"},\"data\":{\"id\":\"901\",\"name\":\"launch\",\"type\":4}}";

        public static void EndpointAnswersOverHttp()
        {
            Check.Step("InteractionsEndpoint: signed POSTs answered by the callback (premium button, LaunchActivity)");
            Check.That(sodium_init() >= 0, "libsodium initialised");
            var seed = new byte[32];
            for (int i = 0; i < seed.Length; i++) seed[i] = (byte)(i + 3);
            var publicKey = new byte[32];
            crypto_sign_seed_keypair(publicKey, SecretKey, seed);

            string premium = Components.PremiumButton(2002);
            Check.That(premium == "{\"type\":2,\"style\":6,\"sku_id\":\"2002\"}", "PremiumButton's JSON (got " + premium + ")");
            bool threw = false;
            try
            {
                Components.PremiumButton(0);
            }
            catch (ArgumentException)
            {
                threw = true;
            }
            Check.That(threw, "PremiumButton(0) throws");

            int before = Diagnostics.LiveCallbackCount;
            int calls = 0, dones = 0;
            string refusedPath = null;
            ClientResult lastDone = null;
            var endpoint = new InteractionsEndpoint(Hex(publicKey));
            try
            {
                // Only the endpoint references this delegate (and what it captures) once registered.
                endpoint.SetInteractionCallback((interaction, responder) =>
                {
                    calls++;
                    using (responder)
                    {
                        if (interaction.CommandName == "launch")
                        {
                            Check.That(responder.LaunchActivity(r => { dones++; lastDone = r; }).Successful,
                                       "LaunchActivity handed over");
                            return;
                        }
                        var refused = responder.RespondMessage("x", "[{\"type\":1,\"components\":[{\"type\":2,\"style\":1}]}]");
                        refusedPath = refused.FieldErrors.Count > 0 ? refused.FieldErrors[0].Path : "";
                        Check.That(!responder.Answered, "a refused answer leaves it unanswered");
                        string row = "[{\"type\":1,\"components\":[" + Components.PremiumButton(2002) + "]}]";
                        Check.That(responder.RespondMessage("Unlock the map", row, MessageFlags.Ephemeral,
                                                            r => { dones++; lastDone = r; }).Successful,
                                   "the premium button's message handed over");
                    }
                });
                Check.That(endpoint.Start().Successful && endpoint.Running && endpoint.Port > 0, "started on a free port");
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();

                var connection = Post(endpoint.Port, Command);
                Pump(endpoint, () => calls == 1);
                string answer = Read(connection);
                Check.That(answer.StartsWith("HTTP/1.1 200"), "the command: 200");
                Check.That(answer.Contains("\"type\":4") && answer.Contains("\"style\":6") &&
                           answer.Contains("\"sku_id\":\"2002\"") && answer.Contains("\"flags\":64"),
                           "its reply is the message with the premium button (got " + answer + ")");
                Check.That(refusedPath == "data.components.0.components.0.custom_id",
                           "the button without a custom id refused at its path (got " + refusedPath + ")");
                Pump(endpoint, () => dones == 1);
                Check.That(dones == 1 && lastDone.Successful, "its done ran inside RunCallbacks");

                connection = Post(endpoint.Port, Launch);
                Pump(endpoint, () => calls == 2);
                answer = Read(connection);
                Check.That(answer.EndsWith("{\"type\":12}"), "the Launch command: LAUNCH_ACTIVITY (got " + answer + ")");
                Pump(endpoint, () => dones == 2);
                Check.That(dones == 2 && lastDone.Successful, "its done ran");
                Check.That(Diagnostics.LiveCallbackCount == before + 1, "only the interaction callback is still held");
            }
            finally
            {
                endpoint.Dispose();
            }
            Check.That(Diagnostics.LiveCallbackCount == before, "Dispose freed every callback");
        }
    }
}
