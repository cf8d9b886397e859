using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>Images and texts of an activity; null leaves one unset.</summary>
    public sealed class ActivityAssets
    {
        public string LargeImage { get; set; }
        public string LargeText { get; set; }
        public string LargeUrl { get; set; }
        public string SmallImage { get; set; }
        public string SmallText { get; set; }
        public string SmallUrl { get; set; }
        public string InviteCoverImage { get; set; }
    }

    /// <summary>Unix milliseconds; 0 for none.</summary>
    public sealed class ActivityTimestamps
    {
        public ulong Start { get; set; }
        public ulong End { get; set; }
    }

    public sealed class ActivityParty
    {
        public ActivityParty()
        {
            Id = "";
        }

        public string Id { get; set; }
        public int CurrentSize { get; set; }
        public int MaxSize { get; set; }
        public ActivityPartyPrivacy Privacy { get; set; }
    }

    public sealed class ActivitySecrets
    {
        public ActivitySecrets()
        {
            Join = "";
        }

        public string Join { get; set; }
    }

    public sealed class ActivityButton
    {
        public ActivityButton()
        {
            Label = "";
            Url = "";
        }

        public string Label { get; set; }
        public string Url { get; set; }
    }

    /// <summary>
    /// What the player is doing, for Client.UpdateRichPresence (checked there: see the C++ API for the rules).
    /// Read back (a friend's UserHandle.GameActivity) it carries what the C ABI reads: name, type, state, details,
    /// application id and party.
    /// </summary>
    public sealed unsafe class Activity
    {
        readonly List<ActivityButton> buttons = new List<ActivityButton>();

        public Activity()
        {
            Name = "";
            SupportedPlatforms = (int)ActivityGamePlatforms.Desktop;
        }

        public string Name { get; set; }
        public ActivityTypes Type { get; set; }
        public StatusDisplayTypes? StatusDisplayType { get; set; }
        /// <summary>2 to 128 characters when set.</summary>
        public string State { get; set; }
        public string StateUrl { get; set; }
        public string Details { get; set; }
        public string DetailsUrl { get; set; }
        public ulong? ApplicationId { get; set; }
        public ActivityAssets Assets { get; set; }
        public ActivityTimestamps Timestamps { get; set; }
        public ActivityParty Party { get; set; }
        public ActivitySecrets Secrets { get; set; }
        /// <summary>Bits of ActivityGamePlatforms (default Desktop).</summary>
        public int SupportedPlatforms { get; set; }

        /// <summary>At most 2 are accepted by UpdateRichPresence.</summary>
        public void AddButton(ActivityButton button)
        {
            if (button == null) throw new ArgumentNullException("button");
            buttons.Add(button);
        }

        public List<ActivityButton> GetButtons()
        {
            return new List<ActivityButton>(buttons);
        }

        /// <summary>A new native activity with these fields; the caller destroys it.</summary>
        internal IntPtr ToNative()
        {
            IntPtr a = Native.platformpp_activity_create();
            if (a == IntPtr.Zero) throw new OutOfMemoryException("platformpp_activity_create");
            try
            {
                Set(Name ?? "", (p, s) => Native.platformpp_activity_set_name(a, p, s));
                Native.platformpp_activity_set_type(a, (platformpp_activity_type)Type);
                Native.platformpp_activity_set_status_display_type(
                    a, StatusDisplayType.HasValue ? (platformpp_status_display_type)StatusDisplayType.Value
                                                  : platformpp_status_display_type.PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET);
                Set(State, (p, s) => Native.platformpp_activity_set_state(a, p, s));
                Set(StateUrl, (p, s) => Native.platformpp_activity_set_state_url(a, p, s));
                Set(Details, (p, s) => Native.platformpp_activity_set_details(a, p, s));
                Set(DetailsUrl, (p, s) => Native.platformpp_activity_set_details_url(a, p, s));
                Native.platformpp_activity_set_application_id(a, ApplicationId ?? 0);
                if (Assets != null)
                {
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_LARGE_IMAGE, Assets.LargeImage);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_LARGE_TEXT, Assets.LargeText);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_LARGE_URL, Assets.LargeUrl);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_SMALL_IMAGE, Assets.SmallImage);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_SMALL_TEXT, Assets.SmallText);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_SMALL_URL, Assets.SmallUrl);
                    SetAsset(a, platformpp_activity_asset.PLATFORMPP_ACTIVITY_ASSET_INVITE_COVER_IMAGE,
                             Assets.InviteCoverImage);
                }
                if (Timestamps != null) Native.platformpp_activity_set_timestamps(a, Timestamps.Start, Timestamps.End);
                if (Party != null)
                {
                    var party = Party;
                    Set(party.Id ?? "",
                        (p, s) => Native.platformpp_activity_set_party(
                            a, p, s, party.CurrentSize, party.MaxSize, (platformpp_activity_party_privacy)party.Privacy));
                }
                if (Secrets != null)
                    Set(Secrets.Join ?? "", (p, s) => Native.platformpp_activity_set_join_secret(a, p, s));
                Native.platformpp_activity_set_supported_platforms(a, SupportedPlatforms);
                foreach (var button in buttons)
                {
                    byte[] label = Utf8.Encode(button.Label ?? ""), url = Utf8.Encode(button.Url ?? "");
                    fixed (byte* pl = label)
                    fixed (byte* pu = url)
                        Native.platformpp_activity_add_button(a, pl, Utf8.Size(label), pu, Utf8.Size(url));
                }
                return a;
            }
            catch
            {
                Native.platformpp_activity_destroy(a);
                throw;
            }
        }

        delegate void Setter(byte* text, UIntPtr size);

        /// <summary>A string setter: null passes NULL (unset), anything else its UTF-8 bytes.</summary>
        static void Set(string value, Setter setter)
        {
            byte[] bytes = Utf8.Encode(value);
            fixed (byte* p = bytes)
                setter(p, Utf8.Size(bytes));
        }

        static void SetAsset(IntPtr activity, platformpp_activity_asset asset, string value)
        {
            Set(value, (p, s) => Native.platformpp_activity_set_asset(activity, asset, p, s));
        }

        /// <summary>A copy of what a native activity exposes (it stays the caller's).</summary>
        internal static Activity FromNative(IntPtr a)
        {
            var activity = new Activity();
            UIntPtr size;
            activity.Name = Utf8.DecodeOrEmpty(Native.platformpp_activity_name(a, &size), size);
            activity.Type = (ActivityTypes)Native.platformpp_activity_get_type(a);
            activity.State = Utf8.Decode(Native.platformpp_activity_state(a, &size), size);
            activity.Details = Utf8.Decode(Native.platformpp_activity_details(a, &size), size);
            ulong applicationId = Native.platformpp_activity_application_id(a);
            activity.ApplicationId = applicationId == 0 ? (ulong?)null : applicationId;
            string partyId = Utf8.Decode(Native.platformpp_activity_party_id(a, &size), size);
            if (partyId != null)
            {
                activity.Party = new ActivityParty();
                activity.Party.Id = partyId;
                activity.Party.CurrentSize = Native.platformpp_activity_party_current_size(a);
                activity.Party.MaxSize = Native.platformpp_activity_party_max_size(a);
            }
            activity.ButtonCount = (int)Native.platformpp_activity_button_count(a).ToUInt64();
            return activity;
        }

        /// <summary>
        /// How many buttons the activity has: GetButtons() of an activity read back from a friend is empty (the C
        /// ABI reads no button contents), this still counts them.
        /// </summary>
        public int ButtonCount
        {
            get { return Math.Max(buttonCount, buttons.Count); }
            private set { buttonCount = value; }
        }

        int buttonCount;
    }
}
