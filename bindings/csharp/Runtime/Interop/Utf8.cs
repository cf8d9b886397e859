using System;
using System.Collections.Generic;
using System.Text;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>UTF-8 in and out of the C ABI's (pointer, size) strings.</summary>
    internal static unsafe class Utf8
    {
        static readonly UTF8Encoding Encoding = new UTF8Encoding(false, false);

        /// <summary>
        /// The bytes of <paramref name="text"/> plus a NUL, or null for a null string. The NUL keeps the array
        /// non-empty, so that a pinned "" is a valid pointer (the C ABI reads NULL as "unset" in places).
        /// </summary>
        public static byte[] Encode(string text)
        {
            if (text == null) return null;
            var bytes = new byte[Encoding.GetByteCount(text) + 1];
            Encoding.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The size in bytes to pass with an array from Encode (0 for null).</summary>
        public static UIntPtr Size(byte[] encoded)
        {
            return new UIntPtr(encoded == null ? 0u : (uint)(encoded.Length - 1));
        }

        /// <summary>A borrowed string out of the library; null for a NULL pointer.</summary>
        public static string Decode(byte* ptr, UIntPtr size)
        {
            if (ptr == null) return null;
            return Encoding.GetString(ptr, checked((int)size.ToUInt64()));
        }

        /// <summary>As Decode, with "" for a NULL pointer.</summary>
        public static string DecodeOrEmpty(byte* ptr, UIntPtr size)
        {
            return ptr == null ? "" : Encoding.GetString(ptr, checked((int)size.ToUInt64()));
        }

        /// <summary>A NUL-terminated string (static strings of the library).</summary>
        public static string DecodeTerminated(byte* ptr)
        {
            if (ptr == null) return null;
            int length = 0;
            while (ptr[length] != 0) length++;
            return Encoding.GetString(ptr, length);
        }

        /// <summary>Copies borrowed pairs into a dictionary.</summary>
        public static Dictionary<string, string> DecodePairs(platformpp_string_pair* pairs, UIntPtr count)
        {
            var result = new Dictionary<string, string>();
            ulong n = count.ToUInt64();
            for (ulong i = 0; i < n; i++)
                result[DecodeOrEmpty(pairs[i].key.ptr, pairs[i].key.size)] =
                    DecodeOrEmpty(pairs[i].value.ptr, pairs[i].value.size);
            return result;
        }
    }
}
