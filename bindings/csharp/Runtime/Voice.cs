using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// Decoded samples of one participant, 20 ms at a time (interleaved, 48000 Hz, 2 channels), before the
    /// library mixes them. Runs on the client's voice thread, not inside RunCallbacks: keep it short, lock-free
    /// and allocation-free (no new, no LINQ, no string formatting, no boxing), or the GC stops the audio. The
    /// array is the binding's reusable buffer, valid for this call only: read or change the first
    /// samplesPerChannel * channels samples in place. Set shouldMute to keep the library from playing them.
    /// </summary>
    public delegate void UserAudioReceivedCallback(ulong userId, short[] samples, int samplesPerChannel, int sampleRate,
                                                   int channels, ref bool shouldMute);

    /// <summary>
    /// The microphone's samples, 20 ms at a time, before processing and sending: what the callback leaves in the
    /// buffer is sent. Voice thread, with the same rules as UserAudioReceivedCallback.
    /// </summary>
    public delegate void UserAudioCapturedCallback(short[] samples, int samplesPerChannel, int sampleRate, int channels);

    /// <summary>
    /// What a call's media did since the call started, across voice servers and reconnections
    /// (Call.GetMediaStatistics): for a network-quality display, or a test that counts what a key change cost.
    /// A platformpp extension; the platform's SDK has no such call.
    /// </summary>
    public struct CallMediaStatistics
    {
        internal static CallMediaStatistics FromNative(platformpp_call_media_statistics s)
        {
            return new CallMediaStatistics
            {
                FramesSent = s.frames_sent,
                FramesEncrypted = s.frames_encrypted,
                FramesWithheld = s.frames_withheld,
                PacketsReceived = s.packets_received,
                FramesDecrypted = s.frames_decrypted,
                FramesInClear = s.frames_in_clear,
                FramesUndecryptable = s.frames_undecryptable,
                FramesLost = s.frames_lost,
                FramesConcealed = s.frames_concealed,
                FramesDecoded = s.frames_decoded,
            };
        }

        /// <summary>Opus frames sent, the silence frames that end speech included.</summary>
        public ulong FramesSent { get; private set; }
        /// <summary>Of those, end-to-end encrypted (DAVE).</summary>
        public ulong FramesEncrypted { get; private set; }
        /// <summary>Not sent: end-to-end encryption on and no key yet.</summary>
        public ulong FramesWithheld { get; private set; }
        /// <summary>Media datagrams received.</summary>
        public ulong PacketsReceived { get; private set; }
        /// <summary>Received frames end-to-end decrypted.</summary>
        public ulong FramesDecrypted { get; private set; }
        /// <summary>Received frames without end-to-end encryption (a plain call).</summary>
        public ulong FramesInClear { get; private set; }
        /// <summary>Received frames dropped: no key of their epoch, bad tag, replayed.</summary>
        public ulong FramesUndecryptable { get; private set; }
        /// <summary>Missing from a sender's sequence when due to play.</summary>
        public ulong FramesLost { get; private set; }
        /// <summary>Made up by loss concealment.</summary>
        public ulong FramesConcealed { get; private set; }
        /// <summary>Opus frames decoded.</summary>
        public ulong FramesDecoded { get; private set; }
    }

    /// <summary>A microphone or speaker. The null device (machines without sound) is "null/input", "null/output".</summary>
    public sealed unsafe class AudioDevice
    {
        internal static AudioDevice FromNative(platformpp_audio_device* device)
        {
            var d = new AudioDevice();
            d.Id = Utf8.DecodeOrEmpty(device->id, device->id_size);
            d.Name = Utf8.DecodeOrEmpty(device->name, device->name_size);
            d.IsDefault = device->is_default != 0;
            return d;
        }

        public string Id { get; private set; }
        public string Name { get; private set; }
        public bool IsDefault { get; private set; }
    }

    /// <summary>A participant's own mute and deafen switches.</summary>
    public sealed class VoiceStateHandle
    {
        internal VoiceStateHandle(bool selfMute, bool selfDeaf)
        {
            SelfMute = selfMute;
            SelfDeaf = selfDeaf;
        }

        public bool SelfMute { get; private set; }
        public bool SelfDeaf { get; private set; }
    }
}
