/** @file
 * Premium of the C ABI: the application's SKUs, the player's entitlements and subscriptions, and the
 * purchase flow.
 *
 * platformpp C ABI, premium: SKUs, entitlements, subscriptions and the purchase flow.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 * See include/platformpp/premium.hpp for the C++ layer.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_PREMIUM_H
#define PLATFORMPP_PLATFORMPP_C_PREMIUM_H

#include <platformpp/platformpp_c_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The application's SKUs and the player's entitlements and subscriptions, as the client keeps them (loaded
 * after every realtime session that was not resumed, then kept current by the realtime connection). Times are
 * milliseconds since the Unix epoch. Objects handed to a callback are borrowed for the callback; those of a
 * snapshot are borrowed from the snapshot until it is destroyed. */

/** What a SKU sells (the platform's numbers). */
typedef enum platformpp_sku_type {
  PLATFORMPP_SKU_TYPE_DURABLE = 2,             /**< A one-time item kept forever. */
  PLATFORMPP_SKU_TYPE_CONSUMABLE = 3,          /**< A one-time item the game consumes. */
  PLATFORMPP_SKU_TYPE_SUBSCRIPTION = 5,        /**< A recurring subscription. */
  PLATFORMPP_SKU_TYPE_SUBSCRIPTION_GROUP = 6,  /**< The platform's own grouping of subscription SKUs. */
  PLATFORMPP_SKU_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a type. */
} platformpp_sku_type;

/** How an entitlement was granted; other values the platform sends are kept as their number. */
typedef enum platformpp_entitlement_type {
  PLATFORMPP_ENTITLEMENT_TYPE_PURCHASE = 1,                 /**< Bought. */
  PLATFORMPP_ENTITLEMENT_TYPE_APPLICATION_SUBSCRIPTION = 8, /**< Granted by a subscription. */
  PLATFORMPP_ENTITLEMENT_TYPE_QUEST_REWARD = 10,            /**< A Quest's reward. */
  PLATFORMPP_ENTITLEMENT_TYPE_FORCE_INT32 = 0x7FFFFFFF      /**< Keeps the enum 32 bits wide; not a type. */
} platformpp_entitlement_type;

/** Where a subscription stands. */
typedef enum platformpp_subscription_status {
  PLATFORMPP_SUBSCRIPTION_STATUS_ACTIVE = 0,   /**< Renews at the end of the period. */
  PLATFORMPP_SUBSCRIPTION_STATUS_INACTIVE = 1, /**< Ended. */
  PLATFORMPP_SUBSCRIPTION_STATUS_ENDING = 2, /**< Canceled: active until the end of the period, then ends. */
  PLATFORMPP_SUBSCRIPTION_STATUS_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a status. */
} platformpp_subscription_status;

/** platformpp_client_result_error_code of a purchase the player canceled (type RPC_ERROR). */
#define PLATFORMPP_PURCHASE_CANCELED_ERROR_CODE 5005
/** platformpp_client_result_error_code of a purchase whose payment failed (type RPC_ERROR). */
#define PLATFORMPP_PURCHASE_FAILED_ERROR_CODE 5006

/** A SKU of the application: something it sells. Its strings are borrowed from the snapshot that holds it. */
typedef struct platformpp_sku {
  uint64_t id;              /**< The SKU's id. */
  uint64_t application_id;  /**< The application that sells it. */
  platformpp_sku_type type; /**< What it sells. */
  uint32_t flags;           /**< The platform's flag bits: 1 << 2 available, 1 << 7 guild subscription, 1 << 8
                                 user subscription. */
  platformpp_string name;   /**< Its name (UTF-8, NUL-terminated). */
  platformpp_string slug;   /**< Its URL slug (UTF-8, NUL-terminated). */
} platformpp_sku;

/** An entitlement: a grant of a SKU to the player (or a guild). Plain values, no pointers. */
typedef struct platformpp_entitlement {
  uint64_t id;                      /**< The entitlement's id. */
  uint64_t sku_id;                  /**< The SKU it grants. */
  uint64_t application_id;          /**< The application of the SKU. */
  uint64_t user_id;                 /**< 0 for a guild's */
  uint64_t guild_id;                /**< 0 unless a guild owns it */
  uint64_t starts_at;               /**< valid when has_starts_at */
  uint64_t ends_at;                 /**< valid when has_ends_at; none: indefinite */
  platformpp_entitlement_type type; /**< How it was granted. */
  int32_t deleted;                  /**< Non-zero when the platform deleted it. */
  int32_t consumed;                 /**< Non-zero for a consumable one-time purchase the game consumed. */
  int32_t has_starts_at;            /**< Non-zero when starts_at is set. */
  int32_t has_ends_at;              /**< Non-zero when ends_at is set (e.g. a subscription ended). */
} platformpp_entitlement;

/** A subscription of the player to this application. Its arrays and string are borrowed from whatever
 * handed it out (the snapshot, or the callback). */
typedef struct platformpp_subscription {
  uint64_t id;                     /**< The subscription's id. */
  uint64_t user_id;                /**< The subscribed user. */
  uint64_t current_period_start;   /**< Start of the current period. */
  uint64_t current_period_end;     /**< End of the current period. */
  uint64_t canceled_at;            /**< valid when has_canceled_at */
  const uint64_t* sku_ids;         /**< The subscribed SKUs: sku_id_count ids (NULL when none). */
  size_t sku_id_count;             /**< Number of sku_ids. */
  const uint64_t* entitlement_ids; /**< The entitlements it granted: entitlement_id_count ids (NULL when
                                      none). */
  size_t entitlement_id_count;     /**< Number of entitlement_ids. */
  /** The SKUs at renewal; has_renewal_sku_ids is 0 when the platform sent null (a canceled subscription). */
  const uint64_t* renewal_sku_ids;
  size_t renewal_sku_id_count;           /**< Number of renewal_sku_ids. */
  platformpp_string country;             /**< empty when unknown */
  platformpp_subscription_status status; /**< Where it stands. */
  int32_t has_renewal_sku_ids;           /**< Non-zero when renewal_sku_ids was sent (even empty). */
  int32_t has_canceled_at;               /**< Non-zero when canceled_at is set. */
} platformpp_subscription;

/** A copy of the client's premium store at one moment; the caller owns it and releases it with
 * platformpp_premium_snapshot_destroy. The arrays it hands out, and the strings and ids in them, are borrowed
 * from it until it is destroyed. */
typedef struct platformpp_premium_snapshot platformpp_premium_snapshot;

/** An entitlement event, inside platformpp_client_run_callbacks.
 * @param entitlement The entitlement, borrowed for the callback.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_entitlement_fn)(const platformpp_entitlement* entitlement, void* user_data);
/** A subscription event, inside platformpp_client_run_callbacks.
 * @param subscription The subscription (its arrays and string included), borrowed for the callback.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_subscription_fn)(const platformpp_subscription* subscription, void* user_data);
/** On failure: entitlements NULL, count 0. Completion of platformpp_client_start_purchase, inside
 * platformpp_client_run_callbacks.
 * @param result The outcome, borrowed for the callback (platformpp_client_result_clone keeps it longer).
 * @param entitlements `count` entitlements the purchase created, borrowed for the callback.
 * @param count Number of entitlements.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_entitlements_result_fn)(const platformpp_client_result* result,
                                                  const platformpp_entitlement* entitlements, size_t count,
                                                  void* user_data);

/** The store now (GetSkus, GetEntitlements, GetSubscriptions); NULL only for a NULL client or out of memory.
 * Destroy it.
 * @param client The client; NULL gives NULL.
 * @return A new snapshot the caller releases with platformpp_premium_snapshot_destroy; empty before the
 * first load. */
PLATFORMPP_C_API platformpp_premium_snapshot* platformpp_client_get_premium_snapshot(
    const platformpp_client* client);
/** Releases a snapshot and everything borrowed from it.
 * @param snapshot The snapshot; NULL is fine. */
PLATFORMPP_C_API void platformpp_premium_snapshot_destroy(platformpp_premium_snapshot* snapshot);
/** The application's SKUs in the platform's order: `*count` of them (NULL with 0 for none).
 * @param snapshot The snapshot; NULL gives NULL with 0.
 * @param count Receives the number of SKUs; may be NULL.
 * @return The SKUs, valid until the snapshot is destroyed. */
PLATFORMPP_C_API const platformpp_sku* platformpp_premium_snapshot_skus(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** The player's entitlements, ascending id, ended and consumed ones included.
 * @param snapshot The snapshot; NULL gives NULL with 0.
 * @param count Receives the number of entitlements; may be NULL.
 * @return The entitlements, valid until the snapshot is destroyed; NULL when there are none. */
PLATFORMPP_C_API const platformpp_entitlement* platformpp_premium_snapshot_entitlements(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** The player's subscriptions to this application, ascending id.
 * @param snapshot The snapshot; NULL gives NULL with 0.
 * @param count Receives the number of subscriptions; may be NULL.
 * @return The subscriptions, valid (with their arrays and strings) until the snapshot is destroyed; NULL
 * when there are none. */
PLATFORMPP_C_API const platformpp_subscription* platformpp_premium_snapshot_subscriptions(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** Non-zero when the player owns the SKU now (HasSkuEntitlement: an active entitlement at the client's
 * clock). Active: not deleted, not consumed, started and not ended.
 * @param client The client; NULL gives 0.
 * @param sku_id The SKU.
 * @return Non-zero when owned; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_client_has_sku_entitlement(const platformpp_client* client,
                                                               uint64_t sku_id);
/** Non-zero once a load has filled the store for the current player.
 * @param client The client; NULL gives 0.
 * @return Non-zero when loaded; 0 otherwise. */
PLATFORMPP_C_API int32_t platformpp_client_is_premium_loaded(const platformpp_client* client);
/** Loads SKUs, entitlements and subscriptions again; needs a token and an application id.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Runs once inside platformpp_client_run_callbacks with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_refresh_premium(platformpp_client* client,
                                                        platformpp_result_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free);
/** The desktop client's checkout (StartPurchase): the callback gets the entitlements the purchase created. A
 * canceled checkout is RPC_ERROR with PLATFORMPP_PURCHASE_CANCELED_ERROR_CODE, a failed payment
 * PLATFORMPP_PURCHASE_FAILED_ERROR_CODE, no desktop client CLIENT_NOT_READY. The new entitlements are
 * already in the store when the callback runs.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param sku_id The SKU to buy.
 * @param callback Runs once inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran (also with CLIENT_DESTROYED); may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_start_purchase(platformpp_client* client, uint64_t sku_id,
                                                       platformpp_entitlements_result_fn callback,
                                                       void* user_data,
                                                       platformpp_user_data_free_fn user_data_free);
/** The end of every load, with its result (after a new session, or platformpp_client_refresh_premium).
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each load (its result borrowed for the
 * callback); replaces any earlier one; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_premium_loaded_callback(
    platformpp_client* client, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** An entitlement appeared in the store (a purchase, a test entitlement). The first load after a new
 * player's session fills the store without entitlement or subscription events.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_entitlement_created_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** An entitlement in the store changed (consumed, or ended: ends_at set).
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_entitlement_updated_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** The entitlement as last known, with `deleted` set. Runs when an entitlement leaves the store.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_entitlement_deleted_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A subscription appeared in the store.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_subscription_created_callback(
    platformpp_client* client, platformpp_subscription_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A subscription in the store changed (a renewal changes the subscription only).
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each event; replaces any earlier one;
 * NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced, removed or the client destroyed
 * (at once for a NULL client or callback); may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_subscription_updated_callback(
    platformpp_client* client, platformpp_subscription_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_PREMIUM_H */
