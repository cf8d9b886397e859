using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Reflection;

// Plays Unity's part for SocialBehaviour under Mono: sets its Inspector fields from the key=value arguments
// csharp_with_emulator passes (an emulator whose desktop-client stand-in consents as Alice), calls Start, then
// Update once a frame until the behaviour is in the lobby (or 15 s pass), then OnDestroy. Exits non-zero when
// the behaviour did not get there.
static class RunSample
{
    static void Call(object behaviour, string method)
    {
        // Unity finds these private methods by name; so does this stand-in.
        behaviour.GetType().GetMethod(method, BindingFlags.Instance | BindingFlags.NonPublic).Invoke(behaviour, null);
    }

    static int Main(string[] args)
    {
        var seed = new Dictionary<string, string>();
        foreach (var arg in args)
        {
            int eq = arg.IndexOf('=');
            if (eq > 0) seed[arg.Substring(0, eq)] = arg.Substring(eq + 1);
        }
        var behaviour = new SocialBehaviour
        {
            ApplicationId = ulong.Parse(seed["app_id"]),
            ApiBase = seed["api_base"],
            CaFile = seed["ca_file"],
            IpcName = seed["ipc_name"],
            IpcDirectory = seed["ipc_dir"],
        };
        Call(behaviour, "Start");
        var clock = Stopwatch.StartNew();
        while (behaviour.Status == "logging in" && clock.Elapsed.TotalSeconds < 15)
        {
            Call(behaviour, "Update");
            System.Threading.Thread.Sleep(16);
        }
        Call(behaviour, "OnDestroy");
        bool ok = behaviour.Status == "in the lobby" && behaviour.LobbyId != 0;
        Console.WriteLine("unity sample: {0} ({1})", ok ? "passed" : "FAILED", behaviour.Status);
        return ok ? 0 : 1;
    }
}
