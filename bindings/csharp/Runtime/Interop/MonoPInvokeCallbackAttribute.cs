#if !UNITY_5_3_OR_NEWER
using System;

namespace AOT
{
    /// <summary>
    /// Marks a static method that native code calls through a function pointer. Unity's IL2CPP compiles such a
    /// method into a native entry point only when it carries this attribute (Unity defines it in UnityEngine;
    /// outside Unity this stand-in keeps the sources identical).
    /// </summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type)
        {
            Type = type;
        }

        /// <summary>The delegate type native code calls the method as.</summary>
        public Type Type { get; private set; }
    }
}
#endif
