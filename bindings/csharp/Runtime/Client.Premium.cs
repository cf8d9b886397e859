using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Premium apps: the store (loaded after every session that was not resumed, kept current by the realtime
    // connection), the queries answered from it, and the purchase flow through the desktop client.
    public sealed unsafe partial class Client
    {
        /// <summary>ClientResult.ErrorCode of a purchase the player canceled (ErrorType.RPCError).</summary>
        public const int PurchaseCanceledErrorCode = 5005;
        /// <summary>ClientResult.ErrorCode of a purchase whose payment failed (ErrorType.RPCError).</summary>
        public const int PurchaseFailedErrorCode = 5006;

        /// <summary>The application's SKUs, in the platform's order.</summary>
        public List<Sku> GetSkus()
        {
            var list = new List<Sku>();
            WithSnapshot(snapshot =>
            {
                UIntPtr count;
                platformpp_sku* skus = Native.platformpp_premium_snapshot_skus(snapshot, &count);
                for (ulong i = 0; i < count.ToUInt64(); i++) list.Add(Sku.From(&skus[i]));
            });
            return list;
        }

        /// <summary>The SKU with that id, or null.</summary>
        public Sku GetSku(ulong skuId)
        {
            foreach (var sku in GetSkus())
                if (sku.Id == skuId) return sku;
            return null;
        }

        /// <summary>The player's entitlements (ascending id), ended and consumed ones included.</summary>
        public List<Entitlement> GetEntitlements()
        {
            var list = new List<Entitlement>();
            WithSnapshot(snapshot =>
            {
                UIntPtr count;
                platformpp_entitlement* entitlements = Native.platformpp_premium_snapshot_entitlements(snapshot, &count);
                list = Entitlement.List(entitlements, count);
            });
            return list;
        }

        /// <summary>The player's subscriptions to this application (ascending id).</summary>
        public List<Subscription> GetSubscriptions()
        {
            var list = new List<Subscription>();
            WithSnapshot(snapshot =>
            {
                UIntPtr count;
                platformpp_subscription* subscriptions = Native.platformpp_premium_snapshot_subscriptions(snapshot, &count);
                for (ulong i = 0; i < count.ToUInt64(); i++) list.Add(Subscription.From(&subscriptions[i]));
            });
            return list;
        }

        /// <summary>Whether the player owns the SKU now (an active entitlement at the client's clock).</summary>
        public bool HasSkuEntitlement(ulong skuId)
        {
            return Native.platformpp_client_has_sku_entitlement(Ptr, skuId) != 0;
        }

        public bool IsPremiumLoaded()
        {
            return Native.platformpp_client_is_premium_loaded(Ptr) != 0;
        }

        public void RefreshPremium(Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_refresh_premium(client, Fn(callback, Trampolines.ResultFn), Box(callback),
                                                     Free(callback));
        }

        /// <summary>
        /// The desktop client's checkout: the callback gets the entitlements the purchase created. A canceled
        /// checkout ends with RPCError and PurchaseCanceledErrorCode, a failed payment PurchaseFailedErrorCode.
        /// </summary>
        public void StartPurchase(ulong skuId, Action<ClientResult, List<Entitlement>> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_start_purchase(client, skuId, Fn(callback, Trampolines.EntitlementsResultFn),
                                                    Box(callback), Free(callback));
        }

        /// <summary>The end of every load, with its result.</summary>
        public void SetPremiumLoadedCallback(Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_premium_loaded_callback(client, Fn(callback, Trampolines.ResultFn),
                                                                 Box(callback), Free(callback));
        }

        public void SetEntitlementCreatedCallback(Action<Entitlement> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_entitlement_created_callback(
                client, Fn(callback, Trampolines.EntitlementFn), Box(callback), Free(callback));
        }

        public void SetEntitlementUpdatedCallback(Action<Entitlement> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_entitlement_updated_callback(
                client, Fn(callback, Trampolines.EntitlementFn), Box(callback), Free(callback));
        }

        /// <summary>The entitlement as last known, with Deleted set.</summary>
        public void SetEntitlementDeletedCallback(Action<Entitlement> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_entitlement_deleted_callback(
                client, Fn(callback, Trampolines.EntitlementFn), Box(callback), Free(callback));
        }

        public void SetSubscriptionCreatedCallback(Action<Subscription> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_subscription_created_callback(
                client, Fn(callback, Trampolines.SubscriptionFn), Box(callback), Free(callback));
        }

        public void SetSubscriptionUpdatedCallback(Action<Subscription> callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_subscription_updated_callback(
                client, Fn(callback, Trampolines.SubscriptionFn), Box(callback), Free(callback));
        }

        void WithSnapshot(Action<IntPtr> read)
        {
            IntPtr snapshot = Native.platformpp_client_get_premium_snapshot(Ptr);
            if (snapshot == IntPtr.Zero) return;
            try
            {
                read(snapshot);
            }
            finally
            {
                Native.platformpp_premium_snapshot_destroy(snapshot);
            }
        }
    }
}
