using System;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    // Authorization: OAuth2 with PKCE, tokens, provisional accounts, account-link requests. applicationId 0 means
    // the value of SetApplicationId. Every operation's callback runs exactly once inside RunCallbacks (or
    // Dispose, with ClientDestroyed), also for invalid input (ValidationError).
    public sealed unsafe partial class Client
    {
        /// <summary>A fresh PKCE pair (S256): pass Challenge in AuthorizationArgs, keep Verifier for GetToken.</summary>
        public static AuthorizationCodeVerifier CreateAuthorizationCodeVerifier()
        {
            IntPtr native = Native.platformpp_client_create_authorization_code_verifier();
            if (native == IntPtr.Zero) throw new InvalidOperationException("no secure randomness for PKCE");
            try
            {
                UIntPtr size;
                var result = new AuthorizationCodeVerifier();
                result.Verifier = Utf8.DecodeOrEmpty(Native.platformpp_authorization_code_verifier_verifier(native, &size),
                                                     size);
                result.Challenge.Challenge = Utf8.DecodeOrEmpty(
                    Native.platformpp_authorization_code_verifier_challenge(native, &size), size);
                result.Challenge.Method = (AuthenticationCodeChallengeMethod)
                    Native.platformpp_authorization_code_verifier_challenge_method(native);
                return result;
            }
            finally
            {
                Native.platformpp_authorization_code_verifier_destroy(native);
            }
        }

        /// <summary>
        /// The browser flow (or the desktop client over IPC when one answers): the callback gets the code and the
        /// redirect URI to pass to GetToken. A new Authorize or AbortAuthorize ends a pending one with Aborted.
        /// </summary>
        public void Authorize(AuthorizationArgs args, Action<ClientResult, string, string> callback)
        {
            if (args == null) throw new ArgumentNullException("args");
            IntPtr client = Ptr;
            byte[] scopes = Utf8.Encode(args.Scopes ?? ""), state = Utf8.Encode(args.State);
            byte[] nonce = Utf8.Encode(args.Nonce);
            byte[] challenge = Utf8.Encode(args.CodeChallenge == null ? null : args.CodeChallenge.Challenge);
            byte[] scheme = Utf8.Encode(args.CustomSchemeParam);
            fixed (byte* pScopes = scopes)
            fixed (byte* pState = state)
            fixed (byte* pNonce = nonce)
            fixed (byte* pChallenge = challenge)
            fixed (byte* pScheme = scheme)
            {
                platformpp_authorization_args a;
                Native.platformpp_authorization_args_init(&a);
                a.client_id = args.ClientId;
                a.scopes = Str(pScopes, scopes);
                a.state = Str(pState, state);
                a.nonce = Str(pNonce, nonce);
                a.code_challenge = Str(pChallenge, challenge);
                a.integration_type = args.IntegrationType.HasValue ? (int)args.IntegrationType.Value : -1;
                a.custom_scheme_param = Str(pScheme, scheme);
                Native.platformpp_client_authorize(client, &a, Fn(callback, Trampolines.AuthorizationFn),
                                                   Box(callback), Free(callback));
            }
        }

        public void AbortAuthorize()
        {
            Native.platformpp_client_abort_authorize(Ptr);
        }

        /// <summary>Replaces how Authorize opens its page (null: the system browser). Runs inside RunCallbacks.</summary>
        public void SetUrlOpener(Func<string, bool> opener)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_url_opener(client, Fn(opener, Trampolines.UrlOpenerFn), Box(opener),
                                                    Free(opener));
        }

        /// <summary>
        /// Exchanges an authorization code for tokens. The callback gets (result, accessToken, refreshToken,
        /// tokenType, expiresIn seconds, scopes). Does not change the client's token: call UpdateToken.
        /// </summary>
        public void GetToken(ulong applicationId, string code, string codeVerifier, string redirectUri,
                             Action<ClientResult, string, string, AuthorizationTokenType, int, string> callback)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(code ?? ""), v = Utf8.Encode(codeVerifier ?? ""), r = Utf8.Encode(redirectUri ?? "");
            fixed (byte* pc = c)
            fixed (byte* pv = v)
            fixed (byte* pr = r)
                Native.platformpp_client_get_token(client, applicationId, pc, Utf8.Size(c), pv, Utf8.Size(v), pr,
                                                   Utf8.Size(r), Fn(callback, Trampolines.TokenExchangeFn),
                                                   Box(callback), Free(callback));
        }

        /// <summary>Exchanges a refresh token for a new pair; "invalid_grant" ends as AuthorizationFailed.</summary>
        public void RefreshToken(ulong applicationId, string refreshToken,
                                 Action<ClientResult, string, string, AuthorizationTokenType, int, string> callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(refreshToken ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_refresh_token(client, applicationId, pt, Utf8.Size(t),
                                                       Fn(callback, Trampolines.TokenExchangeFn), Box(callback),
                                                       Free(callback));
        }

        /// <summary>
        /// Publisher-level linking: a token of the parent application for one of childApplicationId. The callback
        /// gets (result, accessToken, tokenType, expiresIn, scopes).
        /// </summary>
        public void ExchangeChildToken(string parentApplicationToken, ulong childApplicationId,
                                       Action<ClientResult, string, AuthorizationTokenType, int, string> callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(parentApplicationToken ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_exchange_child_token(client, pt, Utf8.Size(t), childApplicationId,
                                                              Fn(callback, Trampolines.ChildTokenFn), Box(callback),
                                                              Free(callback));
        }

        /// <summary>Revokes the whole authorization the token belongs to (access and refresh tokens).</summary>
        public void RevokeToken(ulong applicationId, string token, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(token ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_revoke_token(client, applicationId, pt, Utf8.Size(t),
                                                      Fn(callback, Trampolines.ResultFn), Box(callback),
                                                      Free(callback));
        }

        /// <summary>Sets the token the client uses from now on (in effect before this returns).</summary>
        public void UpdateToken(AuthorizationTokenType tokenType, string token, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(token ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_update_token(client, (platformpp_authorization_token_type)tokenType, pt,
                                                      Utf8.Size(t), Fn(callback, Trampolines.ResultFn), Box(callback),
                                                      Free(callback));
        }

        /// <summary>True once UpdateToken gave the client a token (and it was not revoked or refused since).</summary>
        public bool IsAuthenticated()
        {
            return Native.platformpp_client_is_authenticated(Ptr) != 0;
        }

        /// <summary>Called once per token when it is 5 minutes from expiring: time to RefreshToken.</summary>
        public void SetTokenExpirationCallback(Action callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_set_token_expiration_callback(client, Fn(callback, Trampolines.EventFn),
                                                                   Box(callback), Free(callback));
        }

        /// <summary>A token for a provisional account of the game's own identity provider.</summary>
        public void GetProvisionalToken(ulong applicationId, AuthenticationExternalAuthType externalAuthType,
                                        string externalAuthToken,
                                        Action<ClientResult, string, string, AuthorizationTokenType, int, string>
                                            callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(externalAuthToken ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_get_provisional_token(
                    client, applicationId, (platformpp_authentication_external_auth_type)externalAuthType, pt,
                    Utf8.Size(t), Fn(callback, Trampolines.TokenExchangeFn), Box(callback), Free(callback));
        }

        /// <summary>GetToken that also merges the provisional account of externalAuthToken into the player's.</summary>
        public void GetTokenFromProvisionalMerge(
            ulong applicationId, string code, string codeVerifier, string redirectUri,
            AuthenticationExternalAuthType externalAuthType, string externalAuthToken,
            Action<ClientResult, string, string, AuthorizationTokenType, int, string> callback)
        {
            IntPtr client = Ptr;
            byte[] c = Utf8.Encode(code ?? ""), v = Utf8.Encode(codeVerifier ?? ""), r = Utf8.Encode(redirectUri ?? "");
            byte[] t = Utf8.Encode(externalAuthToken ?? "");
            fixed (byte* pc = c)
            fixed (byte* pv = v)
            fixed (byte* pr = r)
            fixed (byte* pt = t)
                Native.platformpp_client_get_token_from_provisional_merge(
                    client, applicationId, pc, Utf8.Size(c), pv, Utf8.Size(v), pr, Utf8.Size(r),
                    (platformpp_authentication_external_auth_type)externalAuthType, pt, Utf8.Size(t),
                    Fn(callback, Trampolines.TokenExchangeFn), Box(callback), Free(callback));
        }

        /// <summary>Severs a merged account; the link's tokens (the client's own included) stop working.</summary>
        public void UnmergeIntoProvisionalAccount(ulong applicationId, AuthenticationExternalAuthType externalAuthType,
                                                  string externalAuthToken, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] t = Utf8.Encode(externalAuthToken ?? "");
            fixed (byte* pt = t)
                Native.platformpp_client_unmerge_into_provisional_account(
                    client, applicationId, (platformpp_authentication_external_auth_type)externalAuthType, pt,
                    Utf8.Size(t), Fn(callback, Trampolines.ResultFn), Box(callback), Free(callback));
        }

        /// <summary>Sets the display name (1 to 32 characters once trimmed) of the provisional account.</summary>
        public void UpdateProvisionalAccountDisplayName(string name, Action<ClientResult> callback)
        {
            IntPtr client = Ptr;
            byte[] n = Utf8.Encode(name ?? "");
            fixed (byte* pn = n)
                Native.platformpp_client_update_provisional_account_display_name(
                    client, pn, Utf8.Size(n), Fn(callback, Trampolines.ResultFn), Box(callback), Free(callback));
        }

        /// <summary>Account linking started from the desktop client: the cue to call Authorize.</summary>
        public void RegisterAuthorizeRequestCallback(Action callback)
        {
            IntPtr client = Ptr;
            Native.platformpp_client_register_authorize_request_callback(client, Fn(callback, Trampolines.EventFn),
                                                                         Box(callback), Free(callback));
        }

        public void RemoveAuthorizeRequestCallback()
        {
            Native.platformpp_client_remove_authorize_request_callback(Ptr);
        }

        /// <summary>Space-separated scopes for the authorize request: presence, relationships, lobbies, messages.</summary>
        public static string GetDefaultCommunicationScopes()
        {
            return Utf8.DecodeTerminated(Native.platformpp_client_get_default_communication_scopes());
        }

        public static string GetDefaultPresenceScopes()
        {
            return Utf8.DecodeTerminated(Native.platformpp_client_get_default_presence_scopes());
        }
    }
}
