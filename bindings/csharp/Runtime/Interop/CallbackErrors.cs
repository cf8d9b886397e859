using System;
using System.Runtime.ExceptionServices;

namespace Platformpp.Interop
{
    /// <summary>
    /// An exception must not unwind through native frames (the library's run_callbacks is C++). A callback's
    /// exception is caught where native code called in, kept per thread, and thrown again once the outermost
    /// RunCallbacks (or Dispose) of that thread is back in managed code; the callbacks queued after it still run.
    /// </summary>
    internal static class CallbackErrors
    {
        [ThreadStatic] static ExceptionDispatchInfo pending;
        [ThreadStatic] static int depth;

        public static void Capture(Exception e)
        {
            if (pending == null) pending = ExceptionDispatchInfo.Capture(e);
        }

        public static void Enter()
        {
            depth++;
        }

        /// <summary>Leaves a delivery; the outermost one rethrows the first exception a callback threw.</summary>
        public static void Exit()
        {
            if (--depth > 0 || pending == null) return;
            var error = pending;
            pending = null;
            error.Throw();
        }
    }
}
