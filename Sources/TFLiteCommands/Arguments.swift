/// The arguments a subcommand accepts, used both to parse and to print help.
public struct ArgumentSpec: Sendable {
    /// A positional argument (`MODEL`), in order.
    public struct Positional: Sendable {
        public var name: String
        public var help: String
        public var isOptional: Bool
        public init(_ name: String, help: String, isOptional: Bool = false) {
            self.name = name; self.help = help; self.isOptional = isOptional
        }
    }

    /// A `--name` flag, or a `--name VALUE` option when `valueName` is set. An option
    /// may be given several times; ``ParsedArguments/values(_:)`` returns every value.
    public struct Option: Sendable {
        public var name: String
        public var short: Character?
        public var valueName: String?
        public var help: String
        public init(_ name: String, short: Character? = nil, valueName: String? = nil, help: String) {
            self.name = name; self.short = short; self.valueName = valueName; self.help = help
        }
    }

    public var positionals: [Positional]
    public var options: [Option]

    public init(positionals: [Positional] = [], options: [Option] = []) {
        self.positionals = positionals
        self.options = options
    }

    /// `MODEL [--json]`-style synopsis.
    var synopsis: String {
        let p = positionals.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        let o = options.map { "[--\($0.name)\($0.valueName.map { " " + $0 } ?? "")]" }
        return (p + o).joined(separator: " ")
    }

    /// Parses `arguments` (the words after the subcommand name).
    ///
    /// Accepts `--name`, `--name VALUE`, `--name=VALUE`, `-x`, `-x VALUE`, and `--` to end
    /// options. Positionals may appear before or after options.
    public func parse(_ arguments: some Sequence<String>) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var positionalValues: [String] = []
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let arg = iterator.next() {
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                positionalValues.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            let (option, inlineValue) = try lookUp(arg)
            if option.valueName == nil {
                guard inlineValue == nil else { throw .flagTakesNoValue(option: "--\(option.name)") }
                parsed.flags.insert(option.name)
            } else if let inlineValue {
                parsed.optionValues[option.name, default: []].append(inlineValue)
            } else {
                guard let value = iterator.next() else { throw .missingValue(option: "--\(option.name)") }
                parsed.optionValues[option.name, default: []].append(value)
            }
        }
        for (i, positional) in positionals.enumerated() {
            if i < positionalValues.count {
                parsed.positionalValues[positional.name] = positionalValues[i]
            } else if !positional.isOptional {
                throw .missingArgument(positional.name)
            }
        }
        if positionalValues.count > positionals.count {
            throw .unexpectedArgument(positionalValues[positionals.count])
        }
        return parsed
    }

    private func lookUp(_ arg: String) throws(UsageError) -> (Option, String?) {
        if arg.hasPrefix("--") {
            let body = arg.dropFirst(2)
            let name = body.prefix { $0 != "=" }
            let value = name.count < body.count ? String(body.dropFirst(name.count + 1)) : nil
            guard let option = options.first(where: { $0.name == name }) else { throw .unknownOption("--\(name)") }
            return (option, value)
        }
        guard arg.count == 2, let c = arg.last, let option = options.first(where: { $0.short == c }) else {
            throw .unknownOption(arg)
        }
        return (option, nil)
    }
}

/// The result of ``ArgumentSpec/parse(_:)``.
public struct ParsedArguments: Sendable {
    var positionalValues: [String: String] = [:]
    var flags: Set<String> = []
    var optionValues: [String: [String]] = [:]

    /// The positional argument named `name` in the spec, if given.
    public func positional(_ name: String) -> String? { positionalValues[name] }
    /// Whether flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value of option `--name`, if given.
    public func value(_ name: String) -> String? { optionValues[name]?.last }
    /// Every value of option `--name`, in order.
    public func values(_ name: String) -> [String] { optionValues[name] ?? [] }

    /// The last value of `--name` as an integer in `range`.
    public func intValue(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw .invalidValue(option: "--\(name)", value: text, expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return n
    }
}
