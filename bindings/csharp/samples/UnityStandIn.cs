#if !UNITY_5_3_OR_NEWER
using System;

// Outside Unity, the little of UnityEngine the sample uses, so that CI compiles SocialBehaviour.cs as it is.
namespace UnityEngine
{
    public class MonoBehaviour
    {
    }

    public static class Debug
    {
        public static void Log(object message)
        {
            Console.WriteLine(message);
        }
    }
}
#endif
