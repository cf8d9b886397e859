using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using Platformpp;

namespace Platformpp.Tests
{
    /// <summary>A failed Require: the rest of the test cannot run.</summary>
    sealed class TestAbort : Exception
    {
        public TestAbort(string what) : base(what)
        {
        }
    }

    static class Check
    {
        public static int Failures;

        public static bool That(bool ok, string what)
        {
            if (!ok)
            {
                Failures++;
                Console.WriteLine("  FAILED: " + what);
            }
            return ok;
        }

        public static void Require(bool ok, string what)
        {
            if (!That(ok, what)) throw new TestAbort(what);
        }

        public static void Step(string what)
        {
            Console.WriteLine("- " + what);
        }
    }

    /// <summary>
    /// The GC stress of the issue: with it on, every callback of the tests (audio ones included) and every frame
    /// of the pump loop start with a full, blocking collection and wait for the finalizers, so that anything the
    /// binding failed to keep alive (a delegate, a box, a buffer) is collected and finalized at the worst time.
    /// </summary>
    static class Stress
    {
        public static bool Enabled { get; set; }
        public static long Collections;
        public static long CallbacksChecked;

        /// <summary>The thread that runs the game loop (RunCallbacks, Dispose).</summary>
        public static readonly int GameThread = System.Threading.Thread.CurrentThread.ManagedThreadId;
        /// <summary>Above 0 while the tests are inside RunCallbacks or Dispose.</summary>
        public static int Delivering;

        public static void Point()
        {
            if (!Enabled) return;
            GC.Collect();
            GC.WaitForPendingFinalizers();
            System.Threading.Interlocked.Increment(ref Collections);
        }

        /// <summary>Every game-thread callback of the tests starts here.</summary>
        static void Callback()
        {
            CallbacksChecked++;
            if (System.Threading.Thread.CurrentThread.ManagedThreadId != GameThread || Delivering == 0)
                Check.That(false, "a callback ran outside RunCallbacks or Dispose, or off the game thread");
            Point();
        }

        /// <summary>Runs a Dispose (or anything that may run callbacks) as a delivery.</summary>
        public static void Deliver(Action a)
        {
            Delivering++;
            try
            {
                a();
            }
            finally
            {
                Delivering--;
            }
        }

        public static Action S(Action a)
        {
            return () => { Callback(); a(); };
        }

        public static Action<T1> S<T1>(Action<T1> a)
        {
            return x => { Callback(); a(x); };
        }

        public static Action<T1, T2> S<T1, T2>(Action<T1, T2> a)
        {
            return (x, y) => { Callback(); a(x, y); };
        }

        public static Action<T1, T2, T3> S<T1, T2, T3>(Action<T1, T2, T3> a)
        {
            return (x, y, z) => { Callback(); a(x, y, z); };
        }

        public static Action<T1, T2, T3, T4, T5, T6> S<T1, T2, T3, T4, T5, T6>(Action<T1, T2, T3, T4, T5, T6> a)
        {
            return (x1, x2, x3, x4, x5, x6) => { Callback(); a(x1, x2, x3, x4, x5, x6); };
        }
    }

    /// <summary>Runs the callbacks of some clients, a frame at a time, until something is true.</summary>
    sealed class Pump
    {
        readonly Client[] clients;

        public Pump(params Client[] clients)
        {
            this.clients = clients;
        }

        public bool Until(Func<bool> done, double seconds = 10)
        {
            var clock = Stopwatch.StartNew();
            while (!done())
            {
                if (clock.Elapsed.TotalSeconds > seconds) return false;
                Frame();
            }
            return true;
        }

        public void For(double seconds)
        {
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed.TotalSeconds < seconds) Frame();
        }

        /// <summary>One frame: wait briefly for a callback, run every client's callbacks, then the GC stress.</summary>
        public void Frame()
        {
            foreach (var c in clients)
                if (!c.IsDisposed)
                {
                    c.WaitForCallbacks(5);
                    break;
                }
            Stress.Delivering++;
            try
            {
                foreach (var c in clients)
                    if (!c.IsDisposed) c.RunCallbacks();
            }
            finally
            {
                Stress.Delivering--;
            }
            Stress.Point();
        }
    }

    /// <summary>Where the emulator is and what the launcher seeded (key=value arguments).</summary>
    sealed class Seed
    {
        readonly Dictionary<string, string> values = new Dictionary<string, string>();

        public Seed(IEnumerable<string> args)
        {
            foreach (var arg in args)
            {
                int eq = arg.IndexOf('=');
                if (eq > 0) values[arg.Substring(0, eq)] = arg.Substring(eq + 1);
            }
        }

        public string this[string key]
        {
            get
            {
                string v;
                if (!values.TryGetValue(key, out v)) throw new ArgumentException("missing argument " + key + "=");
                return v;
            }
        }

        public ulong Id(string key)
        {
            return ulong.Parse(this[key]);
        }

        public ClientOptions Options(bool ipc)
        {
            return new ClientOptions
            {
                ApiBase = this["api_base"],
                CaFile = this["ca_file"],
                WebBase = this["web_base"],
                IpcName = this["ipc_name"],
                IpcDirectory = this["ipc_dir"],
                IpcEnabled = ipc,
            };
        }
    }

    static class Memory
    {
        /// <summary>The process's resident set size in KiB (Linux).</summary>
        public static long RssKiB()
        {
            foreach (var line in File.ReadAllLines("/proc/self/status"))
                if (line.StartsWith("VmRSS:"))
                    return long.Parse(line.Substring(6).Trim().Split(' ')[0]);
            return -1;
        }

        public static int Threads()
        {
            return Directory.GetDirectories("/proc/self/task").Length;
        }
    }
}
