using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// One voice call of the player, in one lobby. Several Call objects may refer to the same call; disposing one
    /// does not end the call (Client.EndCall does). Once the Client is disposed only Dispose may be called.
    /// Once GetStatus() reaches Disconnected the call is over: end it and start a new one to rejoin.
    /// </summary>
    public sealed unsafe class Call : IDisposable
    {
        public enum Status
        {
            Disconnected = 0,
            Joining = 1,
            Connecting = 2,
            SignalingConnected = 3,
            Connected = 4,
            Reconnecting = 5,
            Disconnecting = 6,
        }

        public enum Error
        {
            None = 0,
            SignalingConnectionFailed = 1,
            SignalingUnexpectedClose = 2,
            VoiceConnectionFailed = 3,
            JoinTimeout = 4,
            Forbidden = 5,
        }

        readonly Client client;
        readonly CallSafeHandle native;

        internal Call(Client client, IntPtr call)
        {
            this.client = client;
            native = new CallSafeHandle(call);
        }

        internal static Call FromOwned(Client client, IntPtr call)
        {
            return call == IntPtr.Zero ? null : new Call(client, call);
        }

        IntPtr Ptr
        {
            get
            {
                if (native.IsClosed) throw new ObjectDisposedException("Platformpp.Call");
                if (client.IsDisposed) throw new ObjectDisposedException("Platformpp.Client", "the Call's Client is disposed");
                return native.DangerousGetHandle();
            }
        }

        /// <summary>Releases this handle to the call (the call goes on).</summary>
        public void Dispose()
        {
            native.Dispose();
        }

        /// <summary>Another handle to the same call.</summary>
        public Call Clone()
        {
            IntPtr clone = Native.platformpp_call_clone(Ptr);
            if (clone == IntPtr.Zero) throw new OutOfMemoryException("platformpp_call_clone");
            return new Call(client, clone);
        }

        /// <summary>The lobby's id (lobby calls use it as their channel).</summary>
        public ulong GetChannelId()
        {
            return Native.platformpp_call_get_channel_id(Ptr);
        }

        /// <summary>0: lobby calls belong to no guild.</summary>
        public ulong GetGuildId()
        {
            return Native.platformpp_call_get_guild_id(Ptr);
        }

        public Status GetStatus()
        {
            return (Status)Native.platformpp_call_get_status(Ptr);
        }

        /// <summary>The users in the call now, the player included once joined.</summary>
        public List<ulong> GetParticipants()
        {
            IntPtr call = Ptr;
            for (;;)
            {
                ulong count = Native.platformpp_call_get_participants(call, null, UIntPtr.Zero).ToUInt64();
                var ids = new ulong[Math.Max(count, 1)];
                fixed (ulong* p = ids)
                {
                    ulong now = Native.platformpp_call_get_participants(call, p, new UIntPtr(count)).ToUInt64();
                    if (now <= count) return Client.Ids(p, new UIntPtr(now));
                }
            }
        }

        /// <summary>The participant's own switches, or null when userId is not in the call.</summary>
        public VoiceStateHandle GetVoiceStateHandle(ulong userId)
        {
            int mute, deaf;
            if (Native.platformpp_call_get_voice_state(Ptr, userId, &mute, &deaf) == 0) return null;
            return new VoiceStateHandle(mute != 0, deaf != 0);
        }

        /// <summary>(status, error, errorDetail) on each change, in order, inside RunCallbacks.</summary>
        public void SetStatusChangedCallback(Action<Status, Error, int> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_set_status_changed_callback(call, Client.Fn(callback, Trampolines.CallStatusChangedFn),
                                                               client.Box(callback), Client.Free(callback));
        }

        /// <summary>(userId, added) when a participant joins or leaves.</summary>
        public void SetParticipantChangedCallback(Action<ulong, bool> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_set_participant_changed_callback(
                call, Client.Fn(callback, Trampolines.CallParticipantChangedFn), client.Box(callback),
                Client.Free(callback));
        }

        /// <summary>(userId, isPlayingSound): someone (the player included) started or stopped sending sound.</summary>
        public void SetSpeakingStatusChangedCallback(Action<ulong, bool> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_set_speaking_status_changed_callback(
                call, Client.Fn(callback, Trampolines.CallSpeakingStatusChangedFn), client.Box(callback),
                Client.Free(callback));
        }

        /// <summary>A participant's voice state changed: read it with GetVoiceStateHandle.</summary>
        public void SetOnVoiceStateChangedCallback(Action<ulong> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_set_voice_state_changed_callback(call, Client.Fn(callback, Trampolines.UserIdFn),
                                                                    client.Box(callback), Client.Free(callback));
        }

        /// <summary>Stops sending the microphone (others see self_mute).</summary>
        public void SetSelfMute(bool mute)
        {
            Native.platformpp_call_set_self_mute(Ptr, mute ? 1 : 0);
        }

        public bool GetSelfMute()
        {
            return Native.platformpp_call_get_self_mute(Ptr) != 0;
        }

        /// <summary>Stops playing the call and sending (others see self_deaf).</summary>
        public void SetSelfDeaf(bool deaf)
        {
            Native.platformpp_call_set_self_deaf(Ptr, deaf ? 1 : 0);
        }

        public bool GetSelfDeaf()
        {
            return Native.platformpp_call_get_self_deaf(Ptr) != 0;
        }

        /// <summary>Silences one participant for this player only.</summary>
        public void SetLocalMute(ulong userId, bool mute)
        {
            Native.platformpp_call_set_local_mute(Ptr, userId, mute ? 1 : 0);
        }

        public bool GetLocalMute(ulong userId)
        {
            return Native.platformpp_call_get_local_mute(Ptr, userId) != 0;
        }

        /// <summary>0 to 200 percent (100 = unchanged), clamped.</summary>
        public void SetParticipantVolume(ulong userId, float volume)
        {
            Native.platformpp_call_set_participant_volume(Ptr, userId, volume);
        }

        public float GetParticipantVolume(ulong userId)
        {
            return Native.platformpp_call_get_participant_volume(Ptr, userId);
        }

        /// <summary>VAD (default) or PTT; Uninit is ignored.</summary>
        public void SetAudioMode(AudioModeType audioMode)
        {
            Native.platformpp_call_set_audio_mode(Ptr, (platformpp_audio_mode_type)audioMode);
        }

        public AudioModeType GetAudioMode()
        {
            return (AudioModeType)Native.platformpp_call_get_audio_mode(Ptr);
        }

        public void SetPTTActive(bool active)
        {
            Native.platformpp_call_set_ptt_active(Ptr, active ? 1 : 0);
        }

        public bool GetPTTActive()
        {
            return Native.platformpp_call_get_ptt_active(Ptr) != 0;
        }

        /// <summary>Milliseconds to keep sending after PTT release (default 20, at most 2000).</summary>
        public void SetPTTReleaseDelay(uint releaseDelayMs)
        {
            Native.platformpp_call_set_ptt_release_delay(Ptr, releaseDelayMs);
        }

        public uint GetPTTReleaseDelay()
        {
            return Native.platformpp_call_get_ptt_release_delay(Ptr);
        }

        /// <summary>Automatic, or a level in dBFS from -100 to 0 (default -60; clamped).</summary>
        public void SetVADThreshold(bool automatic, float threshold)
        {
            Native.platformpp_call_set_vad_threshold(Ptr, automatic ? 1 : 0, threshold);
        }

        public bool GetVADThresholdAutomatic()
        {
            return Native.platformpp_call_get_vad_threshold_automatic(Ptr) != 0;
        }

        public float GetVADThreshold()
        {
            return Native.platformpp_call_get_vad_threshold(Ptr);
        }

        /// <summary>Whether the call's media is end-to-end encrypted now (DAVE).</summary>
        public bool GetE2eeActive()
        {
            return Native.platformpp_call_get_e2ee_active(Ptr) != 0;
        }

        /// <summary>The current MLS epoch's authenticator (32 bytes); empty when there is no group.</summary>
        public byte[] GetEpochAuthenticator()
        {
            IntPtr call = Ptr;
            var bytes = new byte[64];
            ulong size;
            fixed (byte* p = bytes)
                size = Native.platformpp_call_get_epoch_authenticator(call, p, new UIntPtr((uint)bytes.Length)).ToUInt64();
            if (size > (ulong)bytes.Length)
            {
                bytes = new byte[size];
                fixed (byte* p = bytes)
                    size = Native.platformpp_call_get_epoch_authenticator(call, p, new UIntPtr(size)).ToUInt64();
            }
            var result = new byte[Math.Min(size, (ulong)bytes.Length)];
            Array.Copy(bytes, result, result.Length);
            return result;
        }

        /// <summary>The epoch authenticator as 30 digits, the same for everyone in the call; "" without a group.</summary>
        public string GetEpochVerificationCode()
        {
            UIntPtr size;
            return Utf8.DecodeOrEmpty(Native.platformpp_call_get_epoch_verification_code(Ptr, &size), size);
        }

        /// <summary>
        /// The 45-digit code of the player and userId, the same on both sides; computed off the game thread, the
        /// callback runs once inside RunCallbacks ("" when there is none, or when the Client is disposed first).
        /// </summary>
        public void GetPairwiseVerificationCode(ulong userId, Action<string> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_get_pairwise_verification_code(
                call, userId, Client.Fn(callback, Trampolines.CallVerificationCodeFn), client.Box(callback),
                Client.Free(callback));
        }

        /// <summary>What the call's media did since it started; all zero once the call is gone.</summary>
        public CallMediaStatistics GetMediaStatistics()
        {
            IntPtr call = Ptr;
            platformpp_call_media_statistics statistics;
            Native.platformpp_call_get_media_statistics(
                call, &statistics, new UIntPtr((uint)sizeof(platformpp_call_media_statistics)));
            return CallMediaStatistics.FromNative(statistics);
        }

        /// <summary>GetE2eeActive() changed.</summary>
        public void SetE2eeStatusChangedCallback(Action<bool> callback)
        {
            IntPtr call = Ptr;
            Native.platformpp_call_set_e2ee_status_changed_callback(
                call, Client.Fn(callback, Trampolines.CallE2eeStatusChangedFn), client.Box(callback),
                Client.Free(callback));
        }

        /// <summary>e.g. "Connected"; "Unknown" outside the enum.</summary>
        public static string StatusToString(Status status)
        {
            return Utf8.DecodeTerminated(Native.platformpp_call_status_to_string((platformpp_call_status)status));
        }

        public static string ErrorToString(Error error)
        {
            return Utf8.DecodeTerminated(Native.platformpp_call_error_to_string((platformpp_call_error)error));
        }
    }
}
