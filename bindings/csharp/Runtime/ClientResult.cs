using System;
using System.Collections.Generic;
using Platformpp.Interop;
using Platformpp.Raw;

namespace Platformpp
{
    /// <summary>One entry of the platform's nested errors: the field's JSON path and what is wrong with it.</summary>
    public sealed class FieldError
    {
        internal FieldError(string path, string message)
        {
            Path = path;
            Message = message;
        }

        /// <summary>e.g. "activity.state" or "members.3.id".</summary>
        public string Path { get; private set; }
        public string Message { get; private set; }
    }

    /// <summary>
    /// The outcome of an operation: success, or what went wrong and whether trying again can help. A copy made
    /// inside the callback, so it can be kept.
    /// </summary>
    public sealed class ClientResult
    {
        static readonly FieldError[] NoFieldErrors = new FieldError[0];

        /// <summary>Success (shared: a success carries nothing else).</summary>
        public static readonly ClientResult Success = new ClientResult();

        ClientResult()
        {
            Error = "";
            OAuthError = "";
            FieldErrors = NoFieldErrors;
            text = "None";
        }

        string text;

        public ErrorType Type { get; private set; }
        public bool Successful { get { return Type == ErrorType.None; } }
        /// <summary>HTTP status, 0 when no response was received.</summary>
        public int Status { get; private set; }
        /// <summary>The platform's JSON error code (e.g. 50035), 0 when none.</summary>
        public int ErrorCode { get; private set; }
        public string Error { get; private set; }
        /// <summary>The OAuth2 error of a token endpoint (e.g. "invalid_grant"), "" when none.</summary>
        public string OAuthError { get; private set; }
        public bool Retryable { get; private set; }
        /// <summary>Seconds to wait before retrying (rate limits), 0 when unknown.</summary>
        public float RetryAfter { get; private set; }
        public IList<FieldError> FieldErrors { get; private set; }

        /// <summary>One line for logs, e.g. "HTTPError 400 (50035): Invalid Form Body; ...".</summary>
        public override string ToString()
        {
            return text;
        }

        /// <summary>Copies a borrowed native result (valid only during its callback).</summary>
        internal static unsafe ClientResult From(IntPtr result)
        {
            if (Native.platformpp_client_result_successful(result) != 0) return Success;
            var r = new ClientResult();
            r.Type = (ErrorType)Native.platformpp_client_result_type(result);
            r.Status = Native.platformpp_client_result_status(result);
            r.ErrorCode = Native.platformpp_client_result_error_code(result);
            UIntPtr size;
            byte* s = Native.platformpp_client_result_error(result, &size);
            r.Error = Utf8.DecodeOrEmpty(s, size);
            s = Native.platformpp_client_result_oauth_error(result, &size);
            r.OAuthError = Utf8.DecodeOrEmpty(s, size);
            r.Retryable = Native.platformpp_client_result_retryable(result) != 0;
            r.RetryAfter = Native.platformpp_client_result_retry_after(result);
            ulong count = Native.platformpp_client_result_field_error_count(result).ToUInt64();
            if (count > 0)
            {
                var errors = new FieldError[count];
                for (ulong i = 0; i < count; i++)
                {
                    UIntPtr pathSize, messageSize;
                    byte* path = Native.platformpp_client_result_field_error_path(result, new UIntPtr(i), &pathSize);
                    byte* message =
                        Native.platformpp_client_result_field_error_message(result, new UIntPtr(i), &messageSize);
                    errors[i] = new FieldError(Utf8.DecodeOrEmpty(path, pathSize),
                                               Utf8.DecodeOrEmpty(message, messageSize));
                }
                r.FieldErrors = Array.AsReadOnly(errors);
            }
            byte* line = Native.platformpp_client_result_to_string(result);
            r.text = line == null ? r.Type.ToString() : Utf8.DecodeTerminated(line);
            Native.platformpp_free((IntPtr)line);
            return r;
        }
    }
}
