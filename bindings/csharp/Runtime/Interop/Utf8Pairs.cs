using System;
using System.Collections.Generic;
using System.Text;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    /// <summary>
    /// Key-value pairs laid out for the C ABI: every key and value in one UTF-8 buffer, and the pair array that
    /// points into it once both are pinned (<c>fixed</c> in the caller). Never empty, so that an empty set of
    /// pairs is still a non-NULL pointer (the C ABI reads NULL as "no metadata").
    /// </summary>
    internal sealed unsafe class Utf8Pairs
    {
        public readonly byte[] Buffer;
        public readonly platformpp_string_pair[] Pairs;
        public readonly int Count;
        readonly int[] offsets;

        public Utf8Pairs(IDictionary<string, string> pairs)
        {
            Count = pairs == null ? 0 : pairs.Count;
            Pairs = new platformpp_string_pair[Math.Max(Count, 1)];
            offsets = new int[2 * Count + 1];
            var encoding = new UTF8Encoding(false, false);
            int size = 0, i = 0;
            if (pairs != null)
                foreach (var pair in pairs)
                {
                    if (pair.Key == null) throw new ArgumentNullException("pairs", "a metadata key is null");
                    offsets[i++] = size;
                    size += encoding.GetByteCount(pair.Key);
                    offsets[i++] = size;
                    size += encoding.GetByteCount(pair.Value ?? "");
                }
            offsets[i] = size;
            Buffer = new byte[Math.Max(size, 1)];
            i = 0;
            if (pairs != null)
                foreach (var pair in pairs)
                {
                    encoding.GetBytes(pair.Key, 0, pair.Key.Length, Buffer, offsets[i++]);
                    var value = pair.Value ?? "";
                    encoding.GetBytes(value, 0, value.Length, Buffer, offsets[i++]);
                }
        }

        /// <summary>Points the pairs into the buffer; both must be pinned by the caller.</summary>
        public platformpp_string_pair* Fill(byte* buffer, platformpp_string_pair* pairs)
        {
            for (int i = 0; i < Count; i++)
            {
                pairs[i].key.ptr = buffer + offsets[2 * i];
                pairs[i].key.size = new UIntPtr((uint)(offsets[2 * i + 1] - offsets[2 * i]));
                pairs[i].value.ptr = buffer + offsets[2 * i + 1];
                pairs[i].value.size = new UIntPtr((uint)(offsets[2 * i + 2] - offsets[2 * i + 1]));
            }
            return pairs;
        }
    }
}
