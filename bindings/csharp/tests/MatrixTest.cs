using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;

namespace Platformpp.Tests
{
    /// <summary>
    /// The call matrix from C# (docs/c-api-call-matrix.md): every public method of the binding (found by
    /// reflection, so a new one is in the matrix at once) on every object a state offers, with plausible, null,
    /// over-long and invalid arguments, and a full blocking collection (with the finalizers) after every call,
    /// so that a delegate or buffer the binding failed to keep alive is collected before the library calls it.
    /// A call may refuse its arguments with an ArgumentException, an ObjectDisposedException or an
    /// InvalidOperationException; anything else it throws, a callback outside RunCallbacks or Dispose, a call
    /// that blocks, or an operation that does not end exactly once by the time the client is disposed fails.
    /// A parameter type without values fails too: each new kind of argument gets its values here, on purpose.
    /// </summary>
    static class MatrixTest
    {
        sealed class Ticket
        {
            public string Method;
            public bool Once;
            public bool Audio;
            public int Calls;
            public bool Refused;
        }

        static readonly List<Ticket> tickets = new List<Ticket>();
        static readonly SortedSet<string> problems = new SortedSet<string>();
        static readonly SortedSet<string> unknownTypes = new SortedSet<string>();
        static readonly SortedSet<string> notReached = new SortedSet<string>();
        static readonly HashSet<string> reached = new HashSet<string>();
        static int calls;

        // Methods the states call themselves, or that only wait.
        static readonly HashSet<string> Excluded = new HashSet<string> { "Dispose", "RunCallbacks", "Finalize" };

        public static void Run(Seed seed)
        {
            Stress.Enabled = true;
            State("never connected, no token", seed, null, false);
            State("connecting", seed, seed["bob_token"], false);
            State("ready", seed, seed["bob_token"], true);
            AfterDispose(seed);
            foreach (var type in unknownTypes) Check.That(false, "no values for parameter type " + type);
            notReached.ExceptWith(reached);
            Console.WriteLine("  not called (no object of the type in any state): " +
                              (notReached.Count == 0 ? "none" : string.Join(", ", notReached)));
        }

        static void State(string name, Seed seed, string token, bool waitReady)
        {
            Check.Step("state: " + name);
            var client = new Client(seed.Options(true));
            client.SetApplicationId(seed.Id("app_id"));
            var pump = new Pump(client);
            if (token != null)
            {
                client.UpdateToken(AuthorizationTokenType.Bearer, token, Stress.S<ClientResult>(r => { }));
                client.Connect();
            }
            if (waitReady)
                Check.Require(pump.Until(() => client.GetStatus() == Client.Status.Ready, 20), name + ": Ready");
            var objects = Objects(client, seed);
            Reset();
            CallEverything(objects, pump);
            pump.For(0.3);
            Stress.Deliver(client.Dispose);
            DisposeAll(objects);
            Stress.Point();
            Verify(name);
        }

        static void AfterDispose(Seed seed)
        {
            Check.Step("state: what the client handed out, after it is disposed");
            var client = new Client(seed.Options(true));
            client.SetApplicationId(seed.Id("app_id"));
            var pump = new Pump(client);
            client.UpdateToken(AuthorizationTokenType.Bearer, seed["bob_token"], Stress.S<ClientResult>(r => { }));
            client.Connect();
            Check.Require(pump.Until(() => client.GetStatus() == Client.Status.Ready, 20), "after dispose: Ready");
            var objects = Objects(client, seed);
            Stress.Deliver(client.Dispose);
            Reset();
            CallEverything(objects, null);
            DisposeAll(objects);
            Stress.Point();
            Verify("after dispose");
        }

        // The objects a game holds, by type: the client and what it hands out, and objects made without one.
        static Dictionary<Type, object> Objects(Client client, Seed seed)
        {
            var objects = new Dictionary<Type, object> { { typeof(Client), client } };
            Add(objects, client.GetUser(seed.Id("bob_id")));
            Add(objects, client.GetRelationshipHandle(seed.Id("alice_id")));
            Add(objects, client.GetRelationships());
            Add(objects, client.GetUserApplicationProfiles());
            Add(objects, new Activity());
            return objects;
        }

        static void Add(Dictionary<Type, object> objects, object o)
        {
            if (o == null) return;
            objects[o.GetType()] = o;
            // A list's items: a relationship, a user.
            var list = o as System.Collections.IEnumerable;
            if (list != null && !(o is string))
                foreach (var item in list)
                    if (item != null && !objects.ContainsKey(item.GetType())) objects[item.GetType()] = item;
        }

        static void DisposeAll(Dictionary<Type, object> objects)
        {
            foreach (var o in objects.Values)
            {
                var d = o as IDisposable;
                if (d != null && !(o is Client)) Stress.Deliver(d.Dispose);
            }
        }

        static void Reset()
        {
            tickets.Clear();
            problems.Clear();
            calls = 0;
        }

        static IEnumerable<MethodInfo> Methods()
        {
            var flags = BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
            return typeof(Client).Assembly.GetExportedTypes()
                .Where(t => t.Namespace == "Platformpp" && !typeof(Delegate).IsAssignableFrom(t))
                .SelectMany(t => t.GetMethods(flags))
                .Where(m => !m.ContainsGenericParameters && !Excluded.Contains(m.Name) &&
                            !m.GetParameters().Any(p => p.IsOut || p.ParameterType.IsByRef || p.ParameterType.IsPointer))
                .OrderBy(m => m.DeclaringType.FullName + "." + m.Name + "/" + m.GetParameters().Length);
        }

        static void CallEverything(Dictionary<Type, object> objects, Pump pump)
        {
            var methods = Methods().ToList();
            for (int nulls = 0; nulls < 2; ++nulls)
                for (int kind = 0; kind < 4; ++kind)
                    foreach (var method in methods)
                    {
                        object target = null;
                        bool made = false;
                        if (!method.IsStatic && !objects.TryGetValue(method.DeclaringType, out target))
                        {
                            // A type a game makes itself (options, an activity's parts): a fresh one.
                            if (method.DeclaringType.GetConstructor(Type.EmptyTypes) == null)
                            {
                                notReached.Add(method.DeclaringType.Name);
                                continue;
                            }
                            target = Activator.CreateInstance(method.DeclaringType);
                            made = true;
                        }
                        if (!method.IsStatic) reached.Add(method.DeclaringType.Name);
                        var client = objects[typeof(Client)] as Client;
                        // A disconnect or a new token would leave the state: they come in the last kind only.
                        if (kind < 3 && method.DeclaringType == typeof(Client) &&
                            (method.Name == "Disconnect" || method.Name == "UpdateToken" || method.Name == "Connect"))
                            continue;
                        Call(method, target, kind, nulls == 1, objects);
                        var disposable = target as IDisposable;
                        if (made && disposable != null) Stress.Deliver(disposable.Dispose);
                        if (pump != null && ++calls % 32 == 0 && !client.IsDisposed) pump.Frame();
                    }
        }

        static void Call(MethodInfo method, object target, int kind, bool nullObjects,
                         Dictionary<Type, object> objects)
        {
            var name = method.DeclaringType.Name + "." + method.Name;
            var parameters = method.GetParameters();
            var made = new List<Ticket>();
            var args = new object[parameters.Length];
            int lastDelegate = Array.FindLastIndex(parameters, p => typeof(Delegate).IsAssignableFrom(p.ParameterType));
            bool registration = method.Name.StartsWith("Set") || method.Name.StartsWith("Add") ||
                                method.Name.StartsWith("Register") || method.Name.StartsWith("add_") ||
                                method.Name.Contains("AudioCallbacks");
            for (int i = 0; i < parameters.Length; ++i)
            {
                var type = parameters[i].ParameterType;
                if (typeof(Delegate).IsAssignableFrom(type))
                {
                    if (kind == 1) continue;
                    var ticket = new Ticket
                    {
                        Method = name,
                        Once = !registration && i == lastDelegate,
                        Audio = method.Name.Contains("Audio"),
                    };
                    made.Add(ticket);
                    args[i] = MakeDelegate(type, ticket);
                    continue;
                }
                object value;
                if (!Value(type, kind, nullObjects, objects, out value))
                {
                    unknownTypes.Add(type.FullName + " (" + name + ")");
                    return;
                }
                args[i] = value;
            }
            var clock = Stopwatch.StartNew();
            try
            {
                var result = method.Name == "WaitForCallbacks" ? null : method.Invoke(target, args);
                var disposable = result as IDisposable;
                if (disposable != null && !objects.ContainsValue(result)) Stress.Deliver(disposable.Dispose);
            }
            catch (TargetInvocationException e)
            {
                var inner = e.InnerException;
                if (inner is ArgumentException || inner is ObjectDisposedException || inner is InvalidOperationException)
                    foreach (var t in made) t.Refused = true;
                else
                    problems.Add(name + " threw " + inner.GetType().Name + ": " + inner.Message);
            }
            if (clock.Elapsed.TotalSeconds > 2)
                problems.Add(name + " blocked the caller for " + clock.Elapsed.TotalSeconds.ToString("F1") + " s");
            tickets.AddRange(made);
            Stress.Point();  // the collection after every call
        }

        // The value of a parameter for a kind: plausible, null/empty, over-long, invalid.
        static bool Value(Type type, int kind, bool nullObjects, Dictionary<Type, object> objects, out object value)
        {
            value = null;
            var underlying = Nullable.GetUnderlyingType(type);
            if (underlying != null)
            {
                if (kind == 1) return true;
                return Value(underlying, kind, nullObjects, objects, out value);
            }
            if (type == typeof(string))
            {
                value = new[] { "matrix", null, new string('a', 1 << 20), "\uD800ma\0trix\uDFFF" }[kind];
                return true;
            }
            if (type.IsEnum)
            {
                var values = Enum.GetValues(type);
                value = kind == 0 ? values.GetValue(values.Length - 1)
                        : kind == 1 ? Enum.ToObject(type, 0)
                        : kind == 2 ? Enum.ToObject(type, int.MaxValue) : Enum.ToObject(type, -1);
                return true;
            }
            if (type == typeof(bool)) { value = kind % 2 == 0; return true; }
            if (type == typeof(int)) { value = new[] { 1, 0, int.MaxValue, -1 }[kind]; return true; }
            if (type == typeof(uint)) { value = new[] { 1u, 0u, uint.MaxValue, uint.MaxValue }[kind]; return true; }
            if (type == typeof(long)) { value = new[] { 1L, 0L, long.MaxValue, long.MinValue }[kind]; return true; }
            if (type == typeof(ulong))
            {
                value = new[] { 1UL, 0UL, ulong.MaxValue, 0x8000000000000000UL }[kind];
                return true;
            }
            if (type == typeof(float)) { value = new[] { 1f, 0f, float.PositiveInfinity, float.NaN }[kind]; return true; }
            if (type == typeof(double)) { value = new[] { 1.0, 0.0, double.PositiveInfinity, double.NaN }[kind]; return true; }
            if (type == typeof(byte)) { value = new byte[] { 1, 0, 255, 255 }[kind]; return true; }
            if (type == typeof(short)) { value = new short[] { 1, 0, short.MaxValue, -1 }[kind]; return true; }
            if (type == typeof(IDictionary<string, string>) || type == typeof(Dictionary<string, string>))
            {
                if (kind == 1) return true;
                var d = new Dictionary<string, string>();
                int n = kind == 2 ? 300 : 2;
                for (int i = 0; i < n; ++i) d["key" + i] = kind == 2 ? new string('v', 1024) : kind == 3 ? "\uD800" : "v";
                value = d;
                return true;
            }
            if (type.IsArray || (type.IsGenericType && (type.GetGenericTypeDefinition() == typeof(IList<>) ||
                                                        type.GetGenericTypeDefinition() == typeof(IEnumerable<>) ||
                                                        type.GetGenericTypeDefinition() == typeof(List<>) ||
                                                        type.GetGenericTypeDefinition() == typeof(IReadOnlyList<>))))
            {
                if (kind == 1) return true;
                var element = type.IsArray ? type.GetElementType() : type.GetGenericArguments()[0];
                int n = kind == 2 ? 1000 : 2;
                var array = Array.CreateInstance(element, n);
                for (int i = 0; i < n; ++i)
                {
                    object item;
                    if (!Value(element, kind == 2 ? 0 : kind, nullObjects, objects, out item)) return false;
                    array.SetValue(item, i);
                }
                value = type.IsArray || !type.GetGenericTypeDefinition().Equals(typeof(List<>))
                            ? (object)array
                            : Activator.CreateInstance(type, array);
                return true;
            }
            object known;
            if (objects.TryGetValue(type, out known))
            {
                value = nullObjects || kind == 1 ? null : known;
                return true;
            }
            if (!type.IsValueType && type.GetConstructor(Type.EmptyTypes) != null &&
                type.Namespace == "Platformpp")
            {
                value = kind == 1 ? null : Activator.CreateInstance(type);  // an options object as made
                return true;
            }
            if (type.IsValueType && type.Namespace == "Platformpp")
            {
                value = Activator.CreateInstance(type);
                return true;
            }
            if (!type.IsValueType && type.Namespace == "Platformpp")
            {
                value = null;  // an object no state offers: NULL, as a game that lost it would pass
                return true;
            }
            return false;
        }

        // A delegate of any type that reports to its ticket and returns the default of its return type.
        static Delegate MakeDelegate(Type type, Ticket ticket)
        {
            var invoke = type.GetMethod("Invoke");
            var parameters = invoke.GetParameters().Select(p => Expression.Parameter(p.ParameterType, p.Name)).ToArray();
            Expression body = Expression.Call(typeof(MatrixTest).GetMethod("Hit", BindingFlags.NonPublic | BindingFlags.Static),
                                              Expression.Constant(ticket));
            if (invoke.ReturnType != typeof(void)) body = Expression.Block(body, Expression.Default(invoke.ReturnType));
            return Expression.Lambda(type, body, parameters).Compile();
        }

        static void Hit(Ticket ticket)
        {
            ticket.Calls++;
            if (ticket.Audio) return;  // the audio path's callbacks run on the voice thread, as documented
            if (System.Threading.Thread.CurrentThread.ManagedThreadId != Stress.GameThread || Stress.Delivering == 0)
                problems.Add(ticket.Method + ": a callback ran outside RunCallbacks or Dispose, or off the game thread");
            if (ticket.Once && ticket.Calls > 1) problems.Add(ticket.Method + ": its callback ran more than once");
        }

        static void Verify(string state)
        {
            int ended = 0;
            foreach (var t in tickets)
            {
                if (!t.Once || t.Refused) continue;
                if (t.Calls == 1) ++ended;
                else problems.Add(t.Method + ": ended " + t.Calls + " times, not once");
            }
            Console.WriteLine("  {0}: {1} operations ended once, {2} tickets", state, ended, tickets.Count);
            foreach (var p in problems) Check.That(false, state + ": " + p);
        }
    }
}
