/* platformpp C ABI, premium: SKUs, entitlements, subscriptions and the purchase flow.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
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

typedef enum platformpp_sku_type {
  PLATFORMPP_SKU_TYPE_DURABLE = 2,
  PLATFORMPP_SKU_TYPE_CONSUMABLE = 3,
  PLATFORMPP_SKU_TYPE_SUBSCRIPTION = 5,
  PLATFORMPP_SKU_TYPE_SUBSCRIPTION_GROUP = 6,
  PLATFORMPP_SKU_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_sku_type;

typedef enum platformpp_entitlement_type {
  PLATFORMPP_ENTITLEMENT_TYPE_PURCHASE = 1,
  PLATFORMPP_ENTITLEMENT_TYPE_APPLICATION_SUBSCRIPTION = 8,
  PLATFORMPP_ENTITLEMENT_TYPE_QUEST_REWARD = 10,
  PLATFORMPP_ENTITLEMENT_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_entitlement_type;

typedef enum platformpp_subscription_status {
  PLATFORMPP_SUBSCRIPTION_STATUS_ACTIVE = 0,
  PLATFORMPP_SUBSCRIPTION_STATUS_INACTIVE = 1,
  PLATFORMPP_SUBSCRIPTION_STATUS_ENDING = 2,
  PLATFORMPP_SUBSCRIPTION_STATUS_FORCE_INT32 = 0x7FFFFFFF
} platformpp_subscription_status;

/** platformpp_client_result_error_code of a purchase the player canceled (type RPC_ERROR). */
#define PLATFORMPP_PURCHASE_CANCELED_ERROR_CODE 5005
/** platformpp_client_result_error_code of a purchase whose payment failed (type RPC_ERROR). */
#define PLATFORMPP_PURCHASE_FAILED_ERROR_CODE 5006

typedef struct platformpp_sku {
  uint64_t id;
  uint64_t application_id;
  platformpp_sku_type type;
  uint32_t flags;
  platformpp_string name;
  platformpp_string slug;
} platformpp_sku;

typedef struct platformpp_entitlement {
  uint64_t id;
  uint64_t sku_id;
  uint64_t application_id;
  uint64_t user_id;   /**< 0 for a guild's */
  uint64_t guild_id;  /**< 0 unless a guild owns it */
  uint64_t starts_at; /**< valid when has_starts_at */
  uint64_t ends_at;   /**< valid when has_ends_at; none: indefinite */
  platformpp_entitlement_type type;
  int32_t deleted;
  int32_t consumed;
  int32_t has_starts_at;
  int32_t has_ends_at;
} platformpp_entitlement;

typedef struct platformpp_subscription {
  uint64_t id;
  uint64_t user_id;
  uint64_t current_period_start;
  uint64_t current_period_end;
  uint64_t canceled_at; /**< valid when has_canceled_at */
  const uint64_t* sku_ids;
  size_t sku_id_count;
  const uint64_t* entitlement_ids;
  size_t entitlement_id_count;
  /** The SKUs at renewal; has_renewal_sku_ids is 0 when the platform sent null (a canceled subscription). */
  const uint64_t* renewal_sku_ids;
  size_t renewal_sku_id_count;
  platformpp_string country; /**< empty when unknown */
  platformpp_subscription_status status;
  int32_t has_renewal_sku_ids;
  int32_t has_canceled_at;
} platformpp_subscription;

typedef struct platformpp_premium_snapshot platformpp_premium_snapshot;

typedef void (*platformpp_entitlement_fn)(const platformpp_entitlement* entitlement, void* user_data);
typedef void (*platformpp_subscription_fn)(const platformpp_subscription* subscription, void* user_data);
/** On failure: entitlements NULL, count 0. */
typedef void (*platformpp_entitlements_result_fn)(const platformpp_client_result* result,
                                                  const platformpp_entitlement* entitlements, size_t count,
                                                  void* user_data);

/** The store now (GetSkus, GetEntitlements, GetSubscriptions); NULL only for a NULL client or out of memory.
 * Destroy it. */
PLATFORMPP_C_API platformpp_premium_snapshot* platformpp_client_get_premium_snapshot(
    const platformpp_client* client);
PLATFORMPP_C_API void platformpp_premium_snapshot_destroy(platformpp_premium_snapshot* snapshot);
/** The application's SKUs in the platform's order: `*count` of them (NULL with 0 for none). */
PLATFORMPP_C_API const platformpp_sku* platformpp_premium_snapshot_skus(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** The player's entitlements, ascending id, ended and consumed ones included. */
PLATFORMPP_C_API const platformpp_entitlement* platformpp_premium_snapshot_entitlements(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** The player's subscriptions to this application, ascending id. */
PLATFORMPP_C_API const platformpp_subscription* platformpp_premium_snapshot_subscriptions(
    const platformpp_premium_snapshot* snapshot, size_t* count);
/** Non-zero when the player owns the SKU now (HasSkuEntitlement: an active entitlement at the client's
 * clock). */
PLATFORMPP_C_API int32_t platformpp_client_has_sku_entitlement(const platformpp_client* client,
                                                               uint64_t sku_id);
/** Non-zero once a load has filled the store for the current player. */
PLATFORMPP_C_API int32_t platformpp_client_is_premium_loaded(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_refresh_premium(platformpp_client* client,
                                                        platformpp_result_fn callback, void* user_data,
                                                        platformpp_user_data_free_fn user_data_free);
/** The desktop client's checkout (StartPurchase): the callback gets the entitlements the purchase created. A
 * canceled checkout is RPC_ERROR with PLATFORMPP_PURCHASE_CANCELED_ERROR_CODE, a failed payment
 * PLATFORMPP_PURCHASE_FAILED_ERROR_CODE, no desktop client CLIENT_NOT_READY. */
PLATFORMPP_C_API void platformpp_client_start_purchase(platformpp_client* client, uint64_t sku_id,
                                                       platformpp_entitlements_result_fn callback,
                                                       void* user_data,
                                                       platformpp_user_data_free_fn user_data_free);
/** The end of every load, with its result. */
PLATFORMPP_C_API void platformpp_client_set_premium_loaded_callback(
    platformpp_client* client, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_entitlement_created_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_entitlement_updated_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** The entitlement as last known, with `deleted` set. */
PLATFORMPP_C_API void platformpp_client_set_entitlement_deleted_callback(
    platformpp_client* client, platformpp_entitlement_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_subscription_created_callback(
    platformpp_client* client, platformpp_subscription_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_subscription_updated_callback(
    platformpp_client* client, platformpp_subscription_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_PREMIUM_H */
