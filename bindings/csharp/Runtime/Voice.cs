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
