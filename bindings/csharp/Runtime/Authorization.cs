namespace Platformpp
{
    /// <summary>The S256 challenge of a PKCE pair, sent with the authorize request.</summary>
    public sealed class AuthorizationCodeChallenge
    {
        public AuthorizationCodeChallenge()
        {
            Challenge = "";
        }

        public AuthenticationCodeChallengeMethod Method { get; set; }
        public string Challenge { get; set; }
    }

    /// <summary>A PKCE pair (Client.CreateAuthorizationCodeVerifier): keep Verifier secret until GetToken.</summary>
    public sealed class AuthorizationCodeVerifier
    {
        public AuthorizationCodeVerifier()
        {
            Challenge = new AuthorizationCodeChallenge();
            Verifier = "";
        }

        public AuthorizationCodeChallenge Challenge { get; set; }
        public string Verifier { get; set; }
    }

    /// <summary>Arguments of Client.Authorize; null leaves an optional field unset.</summary>
    public sealed class AuthorizationArgs
    {
        public AuthorizationArgs()
        {
            Scopes = "";
        }

        /// <summary>Application id; 0 means the value given to Client.SetApplicationId.</summary>
        public ulong ClientId { get; set; }
        /// <summary>Space-separated scopes; required (Client.GetDefaultCommunicationScopes()).</summary>
        public string Scopes { get; set; }
        /// <summary>Leave unset: a secure random value is generated and checked when the code comes back.</summary>
        public string State { get; set; }
        public string Nonce { get; set; }
        /// <summary>Needed for GetToken: the Challenge of Client.CreateAuthorizationCodeVerifier().</summary>
        public AuthorizationCodeChallenge CodeChallenge { get; set; }
        public IntegrationType? IntegrationType { get; set; }
        /// <summary>A custom URI scheme for mobile redirects.</summary>
        public string CustomSchemeParam { get; set; }
    }
}
