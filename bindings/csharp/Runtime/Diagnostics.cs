using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>Counters for leak checks in tests.</summary>
    public static class Diagnostics
    {
        /// <summary>Native clients created and not yet destroyed, in the whole process.</summary>
        public static ulong NativeLiveClientCount
        {
            get { return Native.platformpp_debug_live_client_count().ToUInt64(); }
        }

        /// <summary>
        /// Managed callbacks the library still holds (GCHandles not yet freed by user_data_free): the clients' and
        /// the interactions endpoints'.
        /// </summary>
        public static int LiveCallbackCount
        {
            get { return UserData.Live + AnswerCallbacks.Live; }
        }
    }
}
