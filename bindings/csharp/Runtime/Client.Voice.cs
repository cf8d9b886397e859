using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Voice calls in lobbies, audio devices and the settings of every call. Without a sound device (or with
    // PLATFORMPP_AUDIO=null in the environment) the null device keeps time with silence.
    public sealed unsafe partial class Client
    {
        /// <summary>
        /// Joins the call of a lobby the player is in. Null when the player is already in that call (GetCall),
        /// the lobby is unknown, or the client is not Ready.
        /// </summary>
        public Call StartCall(ulong lobbyId)
        {
            return Call.FromOwned(this, Native.platformpp_client_start_call(Ptr, lobbyId));
        }

        /// <summary>
        /// StartCall with audio callbacks (either may be null), which run on the client's voice thread every 20 ms
        /// (the one exception to "callbacks run inside RunCallbacks"; see UserAudioReceivedCallback). They stay
        /// alive until the call's media is closed. An exception they throw is thrown again by the next
        /// RunCallbacks.
        /// </summary>
        public Call StartCallWithAudioCallbacks(ulong lobbyId, UserAudioReceivedCallback receivedCb,
                                                UserAudioCapturedCallback capturedCb)
        {
            IntPtr client = Ptr;
            object audio = receivedCb == null && capturedCb == null ? null : new AudioCallbacks(receivedCb, capturedCb);
            IntPtr call = Native.platformpp_client_start_call_with_audio_callbacks(
                client, lobbyId, receivedCb == null ? null : Trampolines.AudioReceivedFn,
                capturedCb == null ? null : Trampolines.AudioCapturedFn, Box(audio), Free(audio));
            return Call.FromOwned(this, call);
        }

        /// <summary>Leaves the call of that lobby; the callback runs once the platform was told.</summary>
        public void EndCall(ulong channelId, Action callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_end_call(client, channelId, Fn(callback, Trampolines.NotifyFn), Box(callback),
                                              Free(callback));
        }

        public void EndCalls(Action callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_end_calls(client, Fn(callback, Trampolines.NotifyFn), Box(callback),
                                               Free(callback));
        }

        /// <summary>The player's call in that lobby, or null.</summary>
        public Call GetCall(ulong channelId)
        {
            return Call.FromOwned(this, Native.platformpp_client_get_call(Ptr, channelId));
        }

        public List<Call> GetCalls()
        {
            IntPtr client = Ptr;
            var result = new List<Call>();
            ulong count = Native.platformpp_client_get_calls(client, null, UIntPtr.Zero).ToUInt64();
            var calls = new IntPtr[Math.Max(count, 1)];
            fixed (IntPtr* p = calls)
            {
                ulong now = Native.platformpp_client_get_calls(client, p, new UIntPtr(count)).ToUInt64();
                for (ulong i = 0; i < Math.Min(now, count); i++)
                    if (p[i] != IntPtr.Zero) result.Add(new Call(this, p[i]));
            }
            return result;
        }

        public void GetInputDevices(Action<List<AudioDevice>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_input_devices(client, Fn(callback, Trampolines.AudioDevicesFn), Box(callback),
                                                       Free(callback));
        }

        public void GetOutputDevices(Action<List<AudioDevice>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_output_devices(client, Fn(callback, Trampolines.AudioDevicesFn), Box(callback),
                                                        Free(callback));
        }

        public void GetCurrentInputDevice(Action<AudioDevice> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_current_input_device(client, Fn(callback, Trampolines.AudioDeviceFn),
                                                              Box(callback), Free(callback));
        }

        public void GetCurrentOutputDevice(Action<AudioDevice> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_get_current_output_device(client, Fn(callback, Trampolines.AudioDeviceFn),
                                                               Box(callback), Free(callback));
        }

        /// <summary>Switches the microphone of every call; an unknown id is ValidationError.</summary>
        public void SetInputDevice(string deviceId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] d = Utf8.Encode(deviceId ?? "");
            fixed (byte* pd = d)
                Native.platformpp_client_set_input_device(client, pd, Utf8.Size(d), Fn(callback, Trampolines.ResultFn),
                                                          Box(callback), Free(callback));
        }

        public void SetOutputDevice(string deviceId, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] d = Utf8.Encode(deviceId ?? "");
            fixed (byte* pd = d)
                Native.platformpp_client_set_output_device(client, pd, Utf8.Size(d), Fn(callback, Trampolines.ResultFn),
                                                           Box(callback), Free(callback));
        }

        /// <summary>(inputDevices, outputDevices) when a device is plugged in or out.</summary>
        public void SetDeviceChangeCallback(Action<List<AudioDevice>, List<AudioDevice>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_device_change_callback(client, Fn(callback, Trampolines.DeviceChangeFn),
                                                                Box(callback), Free(callback));
        }

        /// <summary>Microphone gain, 0 to 100 (default 100).</summary>
        public void SetInputVolume(float inputVolume)
        {
            Native.platformpp_client_set_input_volume(Ptr, inputVolume);
        }

        public float GetInputVolume()
        {
            return Native.platformpp_client_get_input_volume(Ptr);
        }

        /// <summary>Speaker gain, 0 to 100 (default 100).</summary>
        public void SetOutputVolume(float outputVolume)
        {
            Native.platformpp_client_set_output_volume(Ptr, outputVolume);
        }

        public float GetOutputVolume()
        {
            return Native.platformpp_client_get_output_volume(Ptr);
        }

        /// <summary>Mutes the player in every call, now and in calls started later.</summary>
        public void SetSelfMuteAll(bool mute)
        {
            Native.platformpp_client_set_self_mute_all(Ptr, mute ? 1 : 0);
        }

        public bool GetSelfMuteAll()
        {
            return Native.platformpp_client_get_self_mute_all(Ptr) != 0;
        }

        public void SetSelfDeafAll(bool deaf)
        {
            Native.platformpp_client_set_self_deaf_all(Ptr, deaf ? 1 : 0);
        }

        public bool GetSelfDeafAll()
        {
            return Native.platformpp_client_get_self_deaf_all(Ptr) != 0;
        }

        /// <summary>The microphone level (dBFS, -100 to 0) below which, for a while, the input counts as silent.</summary>
        public void SetNoAudioInputThreshold(float dBFSThreshold)
        {
            Native.platformpp_client_set_no_audio_input_threshold(Ptr, dBFSThreshold);
        }

        /// <summary>(inputDetected): false once the microphone stayed silent for a while, true when sound is back.</summary>
        public void SetNoAudioInputCallback(Action<bool> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_no_audio_input_callback(client, Fn(callback, Trampolines.NoAudioInputFn),
                                                                 Box(callback), Free(callback));
        }

        public void SetEchoCancellation(bool on)
        {
            Native.platformpp_client_set_echo_cancellation(Ptr, on ? 1 : 0);
        }

        public bool GetEchoCancellation()
        {
            return Native.platformpp_client_get_echo_cancellation(Ptr) != 0;
        }

        public void SetNoiseSuppression(bool on)
        {
            Native.platformpp_client_set_noise_suppression(Ptr, on ? 1 : 0);
        }

        public bool GetNoiseSuppression()
        {
            return Native.platformpp_client_get_noise_suppression(Ptr) != 0;
        }

        public void SetAutomaticGainControl(bool on)
        {
            Native.platformpp_client_set_automatic_gain_control(Ptr, on ? 1 : 0);
        }

        public bool GetAutomaticGainControl()
        {
            return Native.platformpp_client_get_automatic_gain_control(Ptr) != 0;
        }

        /// <summary>Whether the game manages the audio session itself (iOS/Android). True when accepted.</summary>
        public bool SetEngineManagedAudioSession(bool isEngineManaged)
        {
            return Native.platformpp_client_set_engine_managed_audio_session(Ptr, isEngineManaged ? 1 : 0) != 0;
        }

        /// <summary>Writes the echo canceller's diagnostics to the voice log directory while on.</summary>
        public void SetAecDump(bool on)
        {
            Native.platformpp_client_set_aec_dump(Ptr, on ? 1 : 0);
        }

        public bool SetVoiceLogDir(string path, LoggingSeverity minSeverity)
        {
            IntPtr client = Ptr;
            byte[] p = Utf8.Encode(path ?? "");
            fixed (byte* pp = p)
                return Native.platformpp_client_set_voice_log_dir(client, pp, Utf8.Size(p),
                                                                  (platformpp_logging_severity)minSeverity) != 0;
        }

        /// <summary>Voice engine messages at minSeverity and above, inside RunCallbacks.</summary>
        public void AddVoiceLogCallback(Action<string, LoggingSeverity> callback, LoggingSeverity minSeverity)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_add_voice_log_callback(client, Fn(callback, Trampolines.LogFn),
                                                            (platformpp_logging_severity)minSeverity, Box(callback),
                                                            Free(callback));
        }

        /// <summary>Scheduling priority hint for one of the client's threads; applied when allowed.</summary>
        public void SetThreadPriority(Thread thread, int priority)
        {
            Native.platformpp_client_set_thread_priority(Ptr, (platformpp_client_thread)thread, priority);
        }
    }
}
