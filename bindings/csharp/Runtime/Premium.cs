using System;
using System.Collections.Generic;
using Platformpp.Raw;

// Premium apps: the application's SKUs, the player's entitlements and subscriptions (include/platformpp/premium.hpp).
// Plain managed copies of what the library hands over; times are milliseconds since the Unix epoch.
namespace Platformpp
{
    public enum SkuType
    {
        Durable = 2,
        Consumable = 3,
        Subscription = 5,
        SubscriptionGroup = 6,
    }

    public enum EntitlementType
    {
        Purchase = 1,
        ApplicationSubscription = 8,
        QuestReward = 10,
    }

    public enum SubscriptionStatus
    {
        Active = 0,
        Inactive = 1,
        Ending = 2,
    }

    public sealed class Sku
    {
        public ulong Id { get; private set; }
        public ulong ApplicationId { get; private set; }
        public SkuType Type { get; private set; }
        public string Name { get; private set; }
        public string Slug { get; private set; }
        public uint Flags { get; private set; }
        public bool IsSubscription { get { return Type == SkuType.Subscription; } }

        internal static unsafe Sku From(platformpp_sku* s)
        {
            return new Sku
            {
                Id = s->id,
                ApplicationId = s->application_id,
                Type = (SkuType)s->type,
                Name = Interop.Utf8.DecodeOrEmpty(s->name.ptr, s->name.size),
                Slug = Interop.Utf8.DecodeOrEmpty(s->slug.ptr, s->slug.size),
                Flags = s->flags,
            };
        }
    }

    public sealed class Entitlement
    {
        public ulong Id { get; private set; }
        public ulong SkuId { get; private set; }
        public ulong ApplicationId { get; private set; }
        /// <summary>0 for a guild's entitlement.</summary>
        public ulong UserId { get; private set; }
        public ulong GuildId { get; private set; }
        public EntitlementType Type { get; private set; }
        public bool Deleted { get; private set; }
        /// <summary>A consumable the game has consumed.</summary>
        public bool Consumed { get; private set; }
        public ulong? StartsAt { get; private set; }
        /// <summary>Null: indefinite; set when a subscription ends.</summary>
        public ulong? EndsAt { get; private set; }

        /// <summary>Whether it grants its SKU at nowMs: not deleted, not consumed, started, not ended.</summary>
        public bool ActiveAt(ulong nowMs)
        {
            return !Deleted && !Consumed && (StartsAt == null || StartsAt.Value <= nowMs) &&
                   (EndsAt == null || nowMs < EndsAt.Value);
        }

        internal static unsafe Entitlement From(platformpp_entitlement* e)
        {
            return new Entitlement
            {
                Id = e->id,
                SkuId = e->sku_id,
                ApplicationId = e->application_id,
                UserId = e->user_id,
                GuildId = e->guild_id,
                Type = (EntitlementType)e->type,
                Deleted = e->deleted != 0,
                Consumed = e->consumed != 0,
                StartsAt = e->has_starts_at != 0 ? e->starts_at : (ulong?)null,
                EndsAt = e->has_ends_at != 0 ? e->ends_at : (ulong?)null,
            };
        }

        internal static unsafe List<Entitlement> List(platformpp_entitlement* entitlements, UIntPtr count)
        {
            var list = new List<Entitlement>();
            for (ulong i = 0; i < count.ToUInt64(); i++) list.Add(From(&entitlements[i]));
            return list;
        }
    }

    public sealed class Subscription
    {
        public ulong Id { get; private set; }
        public ulong UserId { get; private set; }
        public List<ulong> SkuIds { get; private set; }
        public List<ulong> EntitlementIds { get; private set; }
        /// <summary>The SKUs at renewal; null when the platform sent null (a canceled subscription).</summary>
        public List<ulong> RenewalSkuIds { get; private set; }
        public ulong CurrentPeriodStart { get; private set; }
        public ulong CurrentPeriodEnd { get; private set; }
        public SubscriptionStatus Status { get; private set; }
        public ulong? CanceledAt { get; private set; }
        /// <summary>Null when unknown.</summary>
        public string Country { get; private set; }

        internal static unsafe Subscription From(platformpp_subscription* s)
        {
            return new Subscription
            {
                Id = s->id,
                UserId = s->user_id,
                SkuIds = Client.Ids(s->sku_ids, s->sku_id_count),
                EntitlementIds = Client.Ids(s->entitlement_ids, s->entitlement_id_count),
                RenewalSkuIds =
                    s->has_renewal_sku_ids != 0 ? Client.Ids(s->renewal_sku_ids, s->renewal_sku_id_count) : null,
                CurrentPeriodStart = s->current_period_start,
                CurrentPeriodEnd = s->current_period_end,
                Status = (SubscriptionStatus)s->status,
                CanceledAt = s->has_canceled_at != 0 ? s->canceled_at : (ulong?)null,
                Country = s->country.size == UIntPtr.Zero ? null : Interop.Utf8.Decode(s->country.ptr, s->country.size),
            };
        }
    }
}
