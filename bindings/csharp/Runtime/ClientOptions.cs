namespace Platformpp
{
    /// <summary>How a Client reaches the platform (or the emulator). Null or empty strings keep the defaults.</summary>
    public sealed class ClientOptions
    {
        public ClientOptions()
        {
            UseSystemCertificates = true;
            IpcEnabled = true;
        }

        /// <summary>Base address of the HTTP API, version included; empty: the platform's.</summary>
        public string ApiBase { get; set; }
        /// <summary>PEM file of extra certificate authorities to trust (e.g. the emulator's ca_file).</summary>
        public string CaFile { get; set; }
        /// <summary>Trust the system's certificate store as well (default). Verification is never off.</summary>
        public bool UseSystemCertificates { get; set; }
        /// <summary>Where the platform's authorize page lives (the browser flow of Authorize).</summary>
        public string WebBase { get; set; }
        /// <summary>How long Authorize waits for the browser, in milliseconds; 0: 5 minutes.</summary>
        public int AuthorizeTimeoutMilliseconds { get; set; }
        /// <summary>The desktop client's IPC socket name prefix; empty: "discord".</summary>
        public string IpcName { get; set; }
        /// <summary>Where its socket is; empty: $XDG_RUNTIME_DIR, $TMPDIR, ..., /tmp.</summary>
        public string IpcDirectory { get; set; }
        /// <summary>Talk to the local desktop client at all (default).</summary>
        public bool IpcEnabled { get; set; }
        /// <summary>
        /// Opt the Gateway session in to channel obfuscation ahead of the platform's date (Identify capability
        /// 1 &lt;&lt; 15), a switch the platform calls temporary and for testing. Off by default.
        /// </summary>
        public bool ChannelObfuscationOptIn { get; set; }
    }
}
