using System;
using System.Diagnostics;
using System.Linq;

namespace Platformpp.Tests
{
    /// <summary>
    /// The binding's tests under Mono:
    ///   PlatformppTests.exe unit                      no emulator: the binding's own rules
    ///   PlatformppTests.exe scenario [--gc-stress] k=v ...   two players against an emulator
    ///   PlatformppTests.exe cycles N k=v ...          N create/connect/dispose cycles, leak checks
    ///   PlatformppTests.exe matrix k=v ...            every public method in every state, a GC after each call
    /// The key=value arguments come from csharp_with_emulator, which starts and seeds the emulator.
    /// </summary>
    static class Program
    {
        static int Main(string[] args)
        {
            if (args.Length == 0)
            {
                Console.Error.WriteLine("usage: PlatformppTests.exe unit | scenario [--gc-stress] k=v... | cycles N k=v... | matrix k=v...");
                return 2;
            }
            var clock = Stopwatch.StartNew();
            try
            {
                switch (args[0])
                {
                    case "unit":
                        UnitTests.Run();
                        break;
                    case "scenario":
                        Stress.Enabled = args.Contains("--gc-stress");
                        new ScenarioTest(new Seed(args.Skip(1))).Run();
                        break;
                    case "matrix":
                        MatrixTest.Run(new Seed(args.Skip(1)));
                        break;
                    case "cycles":
                        CycleTest.Run(int.Parse(args[1]), new Seed(args.Skip(2)));
                        break;
                    default:
                        Console.Error.WriteLine("unknown mode " + args[0]);
                        return 2;
                }
            }
            catch (TestAbort)
            {
                // Reported where it happened.
            }
            catch (Exception e)
            {
                Check.Failures++;
                Console.WriteLine("  FAILED with an exception: " + e);
            }
            Console.WriteLine("{0}: {1} in {2:F1} s{3}", args[0], Check.Failures == 0 ? "passed" : Check.Failures + " failure(s)",
                              clock.Elapsed.TotalSeconds,
                              Stress.Enabled ? string.Format(" ({0} forced collections)", Stress.Collections) : "");
            return Check.Failures == 0 ? 0 : 1;
        }
    }
}
