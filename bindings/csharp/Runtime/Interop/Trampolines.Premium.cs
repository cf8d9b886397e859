using System;
using System.Collections.Generic;
using AOT;
using Platformpp.Raw;

namespace Platformpp.Interop
{
    // The premium callbacks: each copies the borrowed C objects into managed ones before calling the game.
    internal static unsafe partial class Trampolines
    {
        [MonoPInvokeCallback(typeof(platformpp_entitlement_fn))]
        static void EntitlementEvent(platformpp_entitlement* entitlement, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<Entitlement>>(userData)(Entitlement.From(entitlement));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_subscription_fn))]
        static void SubscriptionEvent(platformpp_subscription* subscription, IntPtr userData)
        {
            try
            {
                UserData.Target<Action<Subscription>>(userData)(Subscription.From(subscription));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        [MonoPInvokeCallback(typeof(platformpp_entitlements_result_fn))]
        static void EntitlementsResult(IntPtr result, platformpp_entitlement* entitlements, UIntPtr count,
                                       IntPtr userData)
        {
            try
            {
                UserData.Target<Action<ClientResult, List<Entitlement>>>(userData)(
                    ClientResult.From(result), Entitlement.List(entitlements, count));
            }
            catch (Exception e)
            {
                CallbackErrors.Capture(e);
            }
        }

        internal static readonly platformpp_entitlement_fn EntitlementFn = EntitlementEvent;
        internal static readonly platformpp_subscription_fn SubscriptionFn = SubscriptionEvent;
        internal static readonly platformpp_entitlements_result_fn EntitlementsResultFn = EntitlementsResult;
    }
}
