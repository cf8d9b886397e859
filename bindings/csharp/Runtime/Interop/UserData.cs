using System;
using System.Runtime.InteropServices;
using System.Threading;
using AOT;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>What a user_data points at: the managed callback(s) and the client they belong to.</summary>
    internal sealed class CallbackBox
    {
        public readonly ClientHandle Owner;
        public readonly object Target;

        public CallbackBox(ClientHandle owner, object target)
        {
            Owner = owner;
            Target = target;
        }
    }

    /// <summary>
    /// user_data for the C ABI: a GCHandle to a CallbackBox, which keeps the managed callback alive (and where it
    /// is) while native code holds it. The library calls user_data_free exactly once per registration; FreeFn
    /// frees the GCHandle there.
    /// </summary>
    internal static class UserData
    {
        static int live;

        /// <summary>user_data the library holds now, over every client.</summary>
        public static int Live
        {
            get { return Volatile.Read(ref live); }
        }

        /// <summary>A user_data for <paramref name="target"/>; hand it to the library at once (it frees it).</summary>
        public static IntPtr Alloc(ClientHandle owner, object target)
        {
            var handle = GCHandle.Alloc(new CallbackBox(owner, target));
            owner.BoxAllocated();
            Interlocked.Increment(ref live);
            return GCHandle.ToIntPtr(handle);
        }

        /// <summary>The box behind a user_data. Allocates nothing (the audio path relies on it).</summary>
        public static CallbackBox Get(IntPtr userData)
        {
            return (CallbackBox)GCHandle.FromIntPtr(userData).Target;
        }

        public static T Target<T>(IntPtr userData) where T : class
        {
            return (T)((CallbackBox)GCHandle.FromIntPtr(userData).Target).Target;
        }

        [MonoPInvokeCallback(typeof(platformpp_user_data_free_fn))]
        static void Free(IntPtr userData)
        {
            var handle = GCHandle.FromIntPtr(userData);
            var box = (CallbackBox)handle.Target;
            handle.Free();
            box.Owner.BoxFreed();
            Interlocked.Decrement(ref live);
        }

        /// <summary>Static, so that the function pointer native code keeps is never collected.</summary>
        public static readonly platformpp_user_data_free_fn FreeFn = Free;
    }
}
