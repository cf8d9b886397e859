using System;
using System.Diagnostics;
using Platformpp;

namespace Platformpp.Tests
{
    /// <summary>
    /// N cycles of create, connect, dispose against the emulator, each with a request in flight at Dispose; every
    /// other cycle waits for Ready first, the others dispose while the connection is still being made. Then no
    /// native client (platformpp_debug_live_client_count) and no callback (GCHandle) may be left, the thread
    /// count is back, and the resident set is within 10 % of what it was after a warm-up.
    /// </summary>
    static class CycleTest
    {
        public static void Run(int cycles, Seed seed)
        {
            var options = seed.Options(false);
            // The emulator's CA only. With the system's store too, each cycle would load it again (about 50 ms
            // here): the clients share one loaded store, which goes with the last client, and this test has one
            // client at a time.
            options.UseSystemCertificates = false;
            ulong app = seed.Id("app_id");
            string token = seed["bob_token"];
            ulong nativeBefore = Diagnostics.NativeLiveClientCount;
            int callbacksBefore = Diagnostics.LiveCallbackCount;
            int warmUp = Math.Min(100, cycles / 10);
            long rssWarm = 0;
            int threadsWarm = 0, destroyedInFlight = 0, readyCycles = 0;
            var trend = new System.Text.StringBuilder();
            trend.Append(string.Format("{0:F1}", Memory.RssKiB() / 1024.0 + Memory.Threads()));  // compiled before
            trend.Clear();                                                                        // they measure
            var clock = Stopwatch.StartNew();
            Check.Step(string.Format("{0} create/connect/dispose cycles", cycles));
            for (int i = 0; i < cycles; i++)
            {
                bool waitForReady = i % 2 == 0;
                var client = new Client(options);
                client.SetApplicationId(app);
                bool ready = false;
                client.SetStatusChangedCallback((s, e, d) => { if (s == Client.Status.Ready) ready = true; });
                client.UpdateToken(AuthorizationTokenType.Bearer, token, null);
                client.Connect();
                if (waitForReady)
                {
                    Check.Require(new Pump(client).Until(() => ready, 10), "cycle " + i + " reaches Ready");
                    readyCycles++;
                }
                int ended = 0;
                ErrorType type = ErrorType.None;
                client.FetchCurrentUser(AuthorizationTokenType.Bearer, token, (r, id, name) => { ended++; type = r.Type; });
                Stress.Deliver(client.Dispose);
                if (ended != 1) Check.That(false, "cycle " + i + ": the request in flight ended " + ended + " times");
                if (type == ErrorType.ClientDestroyed) destroyedInFlight++;
                if ((i + 1) % 100 == 0 || i + 1 == warmUp)
                {
                    // A full collection every 100 cycles keeps the managed heap at its live size: without it Mono
                    // grows its heap with the test's garbage until a major collection is due, which would hide
                    // or fake what the native side does.
                    Settle();
                    long rss = Memory.RssKiB();
                    trend.Append(string.Format(" {0:F1}", rss / 1024.0));
                    if (i + 1 == warmUp)
                    {
                        rssWarm = rss;
                        threadsWarm = Memory.Threads();
                    }
                }
            }
            double seconds = clock.Elapsed.TotalSeconds;
            Settle();
            long rssAfter = Memory.RssKiB();
            int threadsAfter = Memory.Threads();
            Console.WriteLine("  {0} cycles in {1:F1} s ({2:F1} ms each; {3} waited for Ready); {4} requests ended with ClientDestroyed",
                              cycles, seconds, 1000 * seconds / cycles, readyCycles, destroyedInFlight);
            Console.WriteLine("  RSS after {0} cycles {1} KiB, after {2}: {3} KiB ({4:+0.0;-0.0} %); threads {5} -> {6}",
                              warmUp, rssWarm, cycles, rssAfter, 100.0 * (rssAfter - rssWarm) / rssWarm, threadsWarm,
                              threadsAfter);
            Console.WriteLine("  RSS every 100 cycles (MiB):{0}", trend);
            Console.WriteLine("  native live clients {0} (before {1}); managed callbacks held by the library {2} (before {3})",
                              Diagnostics.NativeLiveClientCount, nativeBefore, Diagnostics.LiveCallbackCount, callbacksBefore);
            Check.That(Diagnostics.NativeLiveClientCount == nativeBefore, "the native client count is back");
            Check.That(Diagnostics.LiveCallbackCount == callbacksBefore, "every user_data was freed");
            Check.That(threadsAfter <= threadsWarm, "no thread is left behind");
            Check.That(rssAfter <= rssWarm * 1.10, "RSS flat within 10 %");
        }

        static void Settle()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
        }
    }
}
