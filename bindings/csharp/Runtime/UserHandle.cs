using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>A user as the Client knew them when asked: a snapshot (ask again after UserUpdated).</summary>
    public sealed unsafe class UserHandle : IDisposable
    {
        /// <summary>Image formats of AvatarUrl.</summary>
        public enum AvatarType
        {
            Gif = 0,
            Webp = 1,
            Png = 2,
            Jpeg = 3,
        }

        readonly UserSafeHandle native;  // kept for AvatarUrl, which the library computes

        UserHandle(IntPtr owned)
        {
            native = new UserSafeHandle(owned);
            UIntPtr size;
            Id = Native.platformpp_user_handle_id(owned);
            Username = Utf8.DecodeOrEmpty(Native.platformpp_user_handle_username(owned, &size), size);
            DisplayName = Utf8.DecodeOrEmpty(Native.platformpp_user_handle_display_name(owned, &size), size);
            Avatar = Utf8.Decode(Native.platformpp_user_handle_avatar(owned, &size), size);
            Status = (StatusType)Native.platformpp_user_handle_status(owned);
            IntPtr activity = Native.platformpp_user_handle_game_activity(owned);
            if (activity != IntPtr.Zero)
            {
                try
                {
                    GameActivity = Activity.FromNative(activity);
                }
                finally
                {
                    Native.platformpp_activity_destroy(activity);
                }
            }
            IsProvisional = Native.platformpp_user_handle_is_provisional(owned) != 0;
            PrimaryGuildTag = Utf8.Decode(Native.platformpp_user_handle_primary_guild_tag(owned, &size), size);
            PremiumType = Native.platformpp_user_handle_premium_type(owned);
            Relationship = (RelationshipType)Native.platformpp_user_handle_relationship(owned);
        }

        /// <summary>Takes over a handle the caller owns; null for NULL.</summary>
        internal static UserHandle FromOwned(IntPtr owned)
        {
            return owned == IntPtr.Zero ? null : new UserHandle(owned);
        }

        /// <summary>Copies a handle borrowed from a list, a relationship, a member or a message.</summary>
        internal static UserHandle FromBorrowed(IntPtr borrowed)
        {
            if (borrowed == IntPtr.Zero) return null;
            IntPtr clone = Native.platformpp_user_handle_clone(borrowed);
            if (clone == IntPtr.Zero) throw new OutOfMemoryException("platformpp_user_handle_clone");
            return new UserHandle(clone);
        }

        public ulong Id { get; private set; }
        public string Username { get; private set; }
        /// <summary>The global name, or the username when there is none.</summary>
        public string DisplayName { get; private set; }
        /// <summary>The avatar hash, or null.</summary>
        public string Avatar { get; private set; }
        public StatusType Status { get; private set; }
        /// <summary>The user's activity in this game, or null.</summary>
        public Activity GameActivity { get; private set; }
        public bool IsProvisional { get; private set; }
        /// <summary>The guild tag (1 to 4 characters), or null.</summary>
        public string PrimaryGuildTag { get; private set; }
        public int PremiumType { get; private set; }
        public RelationshipType Relationship { get; private set; }

        /// <summary>The avatar's CDN URL (or the default avatar's).</summary>
        public string AvatarUrl(AvatarType animatedType, AvatarType staticType)
        {
            if (native.IsClosed) throw new ObjectDisposedException("Platformpp.UserHandle");
            UIntPtr size;
            byte* url = Native.platformpp_user_handle_avatar_url(native.DangerousGetHandle(),
                                                                 (platformpp_avatar_type)animatedType,
                                                                 (platformpp_avatar_type)staticType, &size);
            return Utf8.DecodeOrEmpty(url, size);
        }

        /// <summary>Releases the native snapshot now (otherwise the GC does); AvatarUrl stops working.</summary>
        public void Dispose()
        {
            native.Dispose();
        }
    }
}
