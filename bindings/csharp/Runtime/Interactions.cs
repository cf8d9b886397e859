using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// One interaction the platform POSTed to the application's interactions endpoint URL, once verified: a managed
    /// copy (nothing native is kept). What the properties leave out (options, values, resolved objects) is in Json.
    /// </summary>
    public sealed unsafe class Interaction
    {
        /// <summary>What an interaction is.</summary>
        public enum InteractionType
        {
            /// <summary>The platform checking the URL: answer Interactions.PongBody.</summary>
            Ping = 1,
            /// <summary>A command was invoked.</summary>
            ApplicationCommand = 2,
            /// <summary>A button was clicked or a select chosen.</summary>
            MessageComponent = 3,
            /// <summary>An option being typed asks for suggestions.</summary>
            Autocomplete = 4,
            /// <summary>A modal was submitted.</summary>
            ModalSubmit = 5,
        }

        /// <summary>What it is.</summary>
        public InteractionType Type { get; private set; }
        /// <summary>Its id (the callback route's).</summary>
        public ulong Id { get; private set; }
        /// <summary>The application it is for.</summary>
        public ulong ApplicationId { get; private set; }
        /// <summary>What answers it: 3 seconds for the initial response, 15 minutes in all. A secret: never log it.</summary>
        public string Token { get; private set; }
        /// <summary>The guild it happened in; 0 in a DM.</summary>
        public ulong GuildId { get; private set; }
        /// <summary>The channel it happened in.</summary>
        public ulong ChannelId { get; private set; }
        /// <summary>The user who triggered it; 0 for a PING.</summary>
        public ulong UserId { get; private set; }
        /// <summary>The user's language, e.g. "en-US".</summary>
        public string Locale { get; private set; }
        /// <summary>A command's or an autocomplete's command name; "" otherwise.</summary>
        public string CommandName { get; private set; }
        /// <summary>A component's or a modal's custom id; "" otherwise.</summary>
        public string CustomId { get; private set; }
        /// <summary>The whole interaction as JSON.</summary>
        public string Json { get; private set; }

        /// <summary>Copies a platformpp_interaction.</summary>
        internal static Interaction FromNative(IntPtr i)
        {
            UIntPtr size;
            var copy = new Interaction();
            copy.Type = (InteractionType)Native.platformpp_interaction_get_type(i);
            copy.Id = Native.platformpp_interaction_id(i);
            copy.ApplicationId = Native.platformpp_interaction_application_id(i);
            copy.Token = Utf8.DecodeOrEmpty(Native.platformpp_interaction_token(i, &size), size);
            copy.GuildId = Native.platformpp_interaction_guild_id(i);
            copy.ChannelId = Native.platformpp_interaction_channel_id(i);
            copy.UserId = Native.platformpp_interaction_user_id(i);
            copy.Locale = Utf8.DecodeOrEmpty(Native.platformpp_interaction_locale(i, &size), size);
            copy.CommandName = Utf8.DecodeOrEmpty(Native.platformpp_interaction_command_name(i, &size), size);
            copy.CustomId = Utf8.DecodeOrEmpty(Native.platformpp_interaction_custom_id(i, &size), size);
            copy.Json = Utf8.DecodeOrEmpty(Native.platformpp_interaction_json(i, &size), size);
            return copy;
        }
    }

    /// <summary>
    /// Signed interactions, for a game server with an HTTP stack of its own: check each request with Verify, then
    /// answer a PING with PongBody and an interaction with its interaction response (JSON) within 3 seconds.
    /// </summary>
    public static unsafe class Interactions
    {
        /// <summary>The body that answers a PING (status 200, Content-Type application/json).</summary>
        public const string PongBody = "{\"type\":1}";

        /// <summary>What to answer (200, 401 refused, 400 not an interaction) and, on 200, the interaction.</summary>
        public struct Verification
        {
            /// <summary>The HTTP status to answer with.</summary>
            public int Status;
            /// <summary>The interaction on 200 (a PING included); null otherwise.</summary>
            public Interaction Interaction;
        }

        /// <summary>
        /// Checks the Ed25519 signature (X-Signature-Ed25519) over the timestamp header (X-Signature-Timestamp)
        /// and the raw body with the application's public key (64 hex digits), refuses a timestamp further than
        /// maxAgeSeconds (0: 300) from now (nowUnixSeconds, 0: the system clock), then reads the interaction.
        /// </summary>
        public static Verification Verify(string publicKeyHex, string signatureHex, string timestamp, byte[] body,
                                          long nowUnixSeconds = 0, int maxAgeSeconds = 0)
        {
            byte[] key = Utf8.Encode(publicKeyHex ?? "");
            byte[] signature = Utf8.Encode(signatureHex ?? "");
            byte[] time = Utf8.Encode(timestamp ?? "");
            byte[] raw = body ?? new byte[0];
            IntPtr i = IntPtr.Zero;
            var verdict = new Verification();
            fixed (byte* k = key)
            fixed (byte* s = signature)
            fixed (byte* t = time)
            fixed (byte* b = raw)
            {
                verdict.Status = Native.platformpp_interaction_verify(k, Utf8.Size(key), s, Utf8.Size(signature), t,
                                                                      Utf8.Size(time), b, new UIntPtr((uint)raw.Length),
                                                                      nowUnixSeconds, maxAgeSeconds, &i);
            }
            if (i == IntPtr.Zero) return verdict;
            try
            {
                verdict.Interaction = Interaction.FromNative(i);
            }
            finally
            {
                Native.platformpp_interaction_destroy(i);
            }
            return verdict;
        }
    }
}
