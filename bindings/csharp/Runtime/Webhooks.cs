using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>
    /// One webhook request the platform POSTed to the application's webhook events URL, once verified: a managed
    /// copy (nothing native is kept).
    /// </summary>
    public sealed unsafe class WebhookEvent
    {
        /// <summary>A PING (answer 204) or an event.</summary>
        public enum Kind
        {
            Ping = 0,
            Event = 1,
        }

        /// <summary>Which typed event the SDK read; Unknown also for a known one whose data lacks a field.</summary>
        public enum DataType
        {
            Unknown = 0,
            ApplicationAuthorized = 1,
            ApplicationDeauthorized = 2,
            EntitlementCreate = 3,
            QuestUserEnrollment = 4,
            LobbyMessageCreate = 5,
            LobbyMessageUpdate = 6,
            LobbyMessageDelete = 7,
            GameDirectMessageCreate = 8,
            GameDirectMessageUpdate = 9,
            GameDirectMessageDelete = 10,
        }

        public Kind EventKind { get; private set; }
        public ulong ApplicationId { get; private set; }
        /// <summary>"APPLICATION_AUTHORIZED", "ENTITLEMENT_CREATE", ...; "" for a PING.</summary>
        public string TypeName { get; private set; }
        /// <summary>Identifies the event across the platform's retries (64 hex digits); "" for a PING.</summary>
        public string Id { get; private set; }
        /// <summary>ISO 8601, as sent.</summary>
        public string Timestamp { get; private set; }
        /// <summary>The event's data object as JSON; "" when none.</summary>
        public string DataJson { get; private set; }
        public DataType Data { get; private set; }
        /// <summary>The user of ApplicationAuthorized / ApplicationDeauthorized; 0 otherwise.</summary>
        public ulong UserId { get; private set; }
        /// <summary>The entitlement of EntitlementCreate (0 otherwise); EntitlementUserId is 0 for a guild's.</summary>
        public ulong EntitlementId { get; private set; }
        public ulong EntitlementSkuId { get; private set; }
        public ulong EntitlementUserId { get; private set; }
        public ulong EntitlementGuildId { get; private set; }
        /// <summary>1 PURCHASE, 8 APPLICATION_SUBSCRIPTION, ...; 0 when not an entitlement.</summary>
        public int EntitlementType { get; private set; }
        /// <summary>Unix milliseconds; null for an indefinite entitlement.</summary>
        public ulong? EntitlementEndsAtMs { get; private set; }

        WebhookEvent() { }

        /// <summary>Copies a borrowed platformpp_webhook_event.</summary>
        internal static WebhookEvent FromNative(IntPtr e)
        {
            UIntPtr size;
            var copy = new WebhookEvent();
            copy.EventKind = (Kind)Native.platformpp_webhook_event_get_kind(e);
            copy.ApplicationId = Native.platformpp_webhook_event_application_id(e);
            copy.TypeName = Utf8.DecodeOrEmpty(Native.platformpp_webhook_event_type_name(e, &size), size);
            copy.Id = Utf8.DecodeOrEmpty(Native.platformpp_webhook_event_id(e, &size), size);
            copy.Timestamp = Utf8.DecodeOrEmpty(Native.platformpp_webhook_event_timestamp(e, &size), size);
            copy.DataJson = Utf8.DecodeOrEmpty(Native.platformpp_webhook_event_data_json(e, &size), size);
            copy.Data = (DataType)Native.platformpp_webhook_event_get_data_type(e);
            copy.UserId = Native.platformpp_webhook_event_user_id(e);
            copy.EntitlementId = Native.platformpp_webhook_event_entitlement_id(e);
            copy.EntitlementSkuId = Native.platformpp_webhook_event_entitlement_sku_id(e);
            copy.EntitlementUserId = Native.platformpp_webhook_event_entitlement_user_id(e);
            copy.EntitlementGuildId = Native.platformpp_webhook_event_entitlement_guild_id(e);
            copy.EntitlementType = Native.platformpp_webhook_event_entitlement_type(e);
            ulong endsAt;
            if (Native.platformpp_webhook_event_entitlement_ends_at(e, &endsAt) != 0) copy.EntitlementEndsAtMs = endsAt;
            return copy;
        }
    }

    /// <summary>
    /// Signed webhook events, for a game server with an HTTP stack of its own: check each request with Verify and
    /// answer the platform with its Status. Remembering WebhookEvent.Id to act once per event is the caller's.
    /// </summary>
    public static unsafe class Webhooks
    {
        /// <summary>What to answer (204, 401 refused, 400 not an event) and, on 204, the event.</summary>
        public struct Verification
        {
            public int Status;
            public WebhookEvent Event;
        }

        /// <summary>
        /// Checks the Ed25519 signature (X-Signature-Ed25519) over the timestamp header (X-Signature-Timestamp)
        /// and the raw body with the application's public key (64 hex digits), refuses a timestamp further than
        /// maxAgeSeconds (0: 300) from now (nowUnixSeconds, 0: the system clock), then parses the body.
        /// </summary>
        public static Verification Verify(string publicKeyHex, string signatureHex, string timestamp, byte[] body,
                                          long nowUnixSeconds = 0, int maxAgeSeconds = 0)
        {
            byte[] key = Utf8.Encode(publicKeyHex ?? "");
            byte[] signature = Utf8.Encode(signatureHex ?? "");
            byte[] time = Utf8.Encode(timestamp ?? "");
            byte[] raw = body ?? new byte[0];
            IntPtr e = IntPtr.Zero;
            var verdict = new Verification();
            fixed (byte* k = key)
            fixed (byte* s = signature)
            fixed (byte* t = time)
            fixed (byte* b = raw)
            {
                verdict.Status = Native.platformpp_webhook_verify(k, Utf8.Size(key), s, Utf8.Size(signature), t,
                                                                  Utf8.Size(time), b, new UIntPtr((uint)raw.Length),
                                                                  nowUnixSeconds, maxAgeSeconds, &e);
            }
            if (e == IntPtr.Zero) return verdict;
            try
            {
                verdict.Event = WebhookEvent.FromNative(e);
            }
            finally
            {
                Native.platformpp_webhook_event_destroy(e);
            }
            return verdict;
        }
    }
}
