using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using AOT;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>What StartCallWithAudioCallbacks hands the voice thread: the callbacks and their buffers.</summary>
    internal sealed class AudioCallbacks
    {
        // One 20 ms frame at 48 kHz stereo; grown (once) only if the library ever hands over more.
        const int FrameSamples = 960 * 2;

        public readonly UserAudioReceivedCallback Received;
        public readonly UserAudioCapturedCallback Captured;
        public short[] ReceivedBuffer = new short[FrameSamples];
        public short[] CapturedBuffer = new short[FrameSamples];

        public AudioCallbacks(UserAudioReceivedCallback received, UserAudioCapturedCallback captured)
        {
            Received = received;
            Captured = captured;
        }
    }

    internal static unsafe partial class Trampolines
    {
        // The audio path: the client's voice thread, every 20 ms, outside RunCallbacks. Nothing here allocates
        // on the managed heap in the steady state: the box is found through its GCHandle, the samples are copied
        // into a buffer made with the call, and an exception (already allocated by whoever threw it) is parked
        // for the next RunCallbacks of the client to rethrow on the game thread.

        [MonoPInvokeCallback(typeof(platformpp_user_audio_received_fn))]
        static void AudioReceived(ulong userId, short* data, ulong samplesPerChannel, int sampleRate, ulong channels,
                                  int* outShouldMute, IntPtr userData)
        {
            var box = UserData.Get(userData);
            try
            {
                var audio = (AudioCallbacks)box.Target;
                int count = checked((int)(samplesPerChannel * channels));
                var buffer = audio.ReceivedBuffer;
                if (buffer.Length < count) audio.ReceivedBuffer = buffer = new short[count];
                Marshal.Copy((IntPtr)data, buffer, 0, count);
                bool mute = *outShouldMute != 0;
                audio.Received(userId, buffer, (int)samplesPerChannel, sampleRate, (int)channels, ref mute);
                Marshal.Copy(buffer, 0, (IntPtr)data, count);
                *outShouldMute = mute ? 1 : 0;
            }
            catch (Exception e)
            {
                Interlocked.CompareExchange(ref box.Owner.AudioException, e, null);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_user_audio_captured_fn))]
        static void AudioCaptured(short* data, ulong samplesPerChannel, int sampleRate, ulong channels,
                                  IntPtr userData)
        {
            var box = UserData.Get(userData);
            try
            {
                var audio = (AudioCallbacks)box.Target;
                int count = checked((int)(samplesPerChannel * channels));
                var buffer = audio.CapturedBuffer;
                if (buffer.Length < count) audio.CapturedBuffer = buffer = new short[count];
                Marshal.Copy((IntPtr)data, buffer, 0, count);
                audio.Captured(buffer, (int)samplesPerChannel, sampleRate, (int)channels);
                Marshal.Copy(buffer, 0, (IntPtr)data, count);
            }
            catch (Exception e)
            {
                Interlocked.CompareExchange(ref box.Owner.AudioException, e, null);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_call_status_changed_fn))]
        static void CallStatusChanged(platformpp_call_status status, platformpp_call_error error, int detail,
                                      IntPtr userData)
        {
            try
            {
                UserData.Target<Action<Call.Status, Call.Error, int>>(userData)((Call.Status)status, (Call.Error)error,
                                                                                detail);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_call_participant_changed_fn))]
        static void CallParticipantChanged(ulong userId, int added, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong, bool>>(userData)(userId, added != 0);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_call_speaking_status_changed_fn))]
        static void CallSpeakingStatusChanged(ulong userId, int isPlayingSound, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ulong, bool>>(userData)(userId, isPlayingSound != 0);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_call_e2ee_status_changed_fn))]
        static void CallE2eeStatusChanged(int active, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<bool>>(userData)(active != 0);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_call_verification_code_fn))]
        static void CallVerificationCode(byte* code, UIntPtr codeSize, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<string>>(userData)(Utf8.DecodeOrEmpty(code, codeSize));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_no_audio_input_fn))]
        static void NoAudioInput(int inputDetected, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<bool>>(userData)(inputDetected != 0);
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        static List<AudioDevice> Devices(platformpp_audio_device* devices, UIntPtr count)
        {
            var list = new List<AudioDevice>();
            for (ulong i = 0; i < count.ToUInt64(); i++)
                list.Add(AudioDevice.FromNative(devices + i));
            return list;
        }

        [MonoPInvokeCallback(typeof(platformpp_audio_devices_fn))]
        static void AudioDevices(platformpp_audio_device* devices, UIntPtr count, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<List<AudioDevice>>>(userData)(Devices(devices, count));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_audio_device_fn))]
        static void AudioDeviceEvent(platformpp_audio_device* device, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<AudioDevice>>(userData)(AudioDevice.FromNative(device));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_device_change_fn))]
        static void DeviceChange(platformpp_audio_device* inputs, UIntPtr inputCount, platformpp_audio_device* outputs,
                                 UIntPtr outputCount, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<List<AudioDevice>, List<AudioDevice>>>(userData)(Devices(inputs, inputCount),
                                                                                        Devices(outputs, outputCount));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        internal static readonly platformpp_user_audio_received_fn AudioReceivedFn = AudioReceived;
        internal static readonly platformpp_user_audio_captured_fn AudioCapturedFn = AudioCaptured;
        internal static readonly platformpp_call_status_changed_fn CallStatusChangedFn = CallStatusChanged;
        internal static readonly platformpp_call_participant_changed_fn CallParticipantChangedFn =
            CallParticipantChanged;
        internal static readonly platformpp_call_speaking_status_changed_fn CallSpeakingStatusChangedFn =
            CallSpeakingStatusChanged;
        internal static readonly platformpp_call_e2ee_status_changed_fn CallE2eeStatusChangedFn = CallE2eeStatusChanged;
        internal static readonly platformpp_call_verification_code_fn CallVerificationCodeFn = CallVerificationCode;
        internal static readonly platformpp_no_audio_input_fn NoAudioInputFn = NoAudioInput;
        internal static readonly platformpp_audio_devices_fn AudioDevicesFn = AudioDevices;
        internal static readonly platformpp_audio_device_fn AudioDeviceFn = AudioDeviceEvent;
        internal static readonly platformpp_device_change_fn DeviceChangeFn = DeviceChange;
    }
}
