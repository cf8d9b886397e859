using System;
using System.Threading;

namespace Platformpp.Tests
{
    /// <summary>Alice's "voice": a 440 Hz sine her game writes into her microphone frames (voice thread).</summary>
    sealed class Tone
    {
        public volatile bool On;
        public int Frames;
        double phase;

        public void Captured(short[] samples, int samplesPerChannel, int sampleRate, int channels)
        {
            if (Stress.Enabled) Stress.Point();  // the stress run collects on the voice thread too
            Interlocked.Increment(ref Frames);
            for (int i = 0; i < samplesPerChannel; i++)
            {
                short v = On ? (short)(9000 * Math.Sin(phase)) : (short)0;
                phase = (phase + 2 * Math.PI * 440 / sampleRate) % (2 * Math.PI);
                for (int c = 0; c < channels; c++) samples[i * channels + c] = v;
            }
        }
    }

    /// <summary>
    /// Bob's ear (voice thread): counts the frames that come from one user and, while recording, keeps their left
    /// channel in a buffer made up front, so that the callback allocates nothing.
    /// </summary>
    sealed class Ear
    {
        public readonly ulong From;
        public int Frames;
        public volatile bool Recording;
        public int OnGameThread;
        readonly float[] heard = new float[48000 * 3];
        int written;

        public Ear(ulong from)
        {
            From = from;
        }

        public void Received(ulong userId, short[] samples, int samplesPerChannel, int sampleRate, int channels,
                             ref bool shouldMute)
        {
            if (Stress.Enabled) Stress.Point();
            if (Thread.CurrentThread.ManagedThreadId == Stress.GameThread) Interlocked.Increment(ref OnGameThread);
            shouldMute = true;  // nothing to play on the null device anyway
            if (userId != From) return;
            Interlocked.Increment(ref Frames);
            if (!Recording) return;
            int at = Volatile.Read(ref written);
            int n = Math.Min(samplesPerChannel, heard.Length - at);
            for (int i = 0; i < n; i++) heard[at + i] = samples[i * channels];
            Volatile.Write(ref written, at + n);
        }

        public int Recorded
        {
            get { return Volatile.Read(ref written); }
        }

        public float[] Take()
        {
            Recording = false;
            var copy = new float[Recorded];
            Array.Copy(heard, copy, copy.Length);
            return copy;
        }

        /// <summary>
        /// The tone's share of what was heard, in dB, per 100 ms window: the best-fitting 440 Hz sine against the
        /// rest (as the voice-call sample measures it). A tone of another pitch, or noise, scores near 0 dB.
        /// </summary>
        public static double[] ToneSnrDb(float[] x, int window = 4800)
        {
            var windows = new double[x.Length / window];
            for (int w = 0; w < windows.Length; w++)
            {
                int start = w * window;
                double ss = 0, cc = 0, sc = 0, xs = 0, xc = 0;
                for (int i = 0; i < window; i++)
                {
                    double t = 2 * Math.PI * 440 * i / 48000.0;
                    ss += Math.Sin(t) * Math.Sin(t);
                    cc += Math.Cos(t) * Math.Cos(t);
                    sc += Math.Sin(t) * Math.Cos(t);
                    xs += x[start + i] * Math.Sin(t);
                    xc += x[start + i] * Math.Cos(t);
                }
                double det = ss * cc - sc * sc, a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det;
                double signal = 0, noise = 0;
                for (int i = 0; i < window; i++)
                {
                    double t = 2 * Math.PI * 440 * i / 48000.0;
                    double fit = a * Math.Sin(t) + b * Math.Cos(t);
                    signal += fit * fit;
                    noise += (x[start + i] - fit) * (x[start + i] - fit);
                }
                windows[w] = 10 * Math.Log10(signal / Math.Max(noise, 1e-9));
            }
            return windows;
        }
    }
}
