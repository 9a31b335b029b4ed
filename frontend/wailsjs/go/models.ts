export namespace approval {
	
	export class Pending {
	    runId: string;
	    sessionId: string;
	    callId: string;
	    tool: string;
	    args: number[];
	    why: i18n.Message;
	    reason: string;
	    // Go type: time
	    since: any;
	    dir?: string;
	    destructive?: boolean;
	    sandbox?: string;
	    sandboxNote?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Pending(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runId = source["runId"];
	        this.sessionId = source["sessionId"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.args = source["args"];
	        this.why = this.convertValues(source["why"], i18n.Message);
	        this.reason = source["reason"];
	        this.since = this.convertValues(source["since"], null);
	        this.dir = source["dir"];
	        this.destructive = source["destructive"];
	        this.sandbox = source["sandbox"];
	        this.sandboxNote = this.convertValues(source["sandboxNote"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace attach {
	
	export class Dropped {
	    path: string;
	    name: string;
	    bytes: number;
	    picture?: boolean;
	    error?: string;
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new Dropped(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.bytes = source["bytes"];
	        this.picture = source["picture"];
	        this.error = source["error"];
	        this.detail = source["detail"];
	    }
	}

}

export namespace audit {
	
	export class Entry {
	    // Go type: time
	    time: any;
	    session: string;
	    run: string;
	    callId: string;
	    tool: string;
	    args: number[];
	    approval: string;
	    asked?: boolean;
	    ok: boolean;
	    durationMs: number;
	    resultSize: number;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Entry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = this.convertValues(source["time"], null);
	        this.session = source["session"];
	        this.run = source["run"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.args = source["args"];
	        this.approval = source["approval"];
	        this.asked = source["asked"];
	        this.ok = source["ok"];
	        this.durationMs = source["durationMs"];
	        this.resultSize = source["resultSize"];
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Filter {
	    // Go type: time
	    since: any;
	    // Go type: time
	    until: any;
	    sessionId: string;
	    runId: string;
	    tool: string;
	    approval: string;
	    failed: boolean;
	    text: string;
	    limit: number;
	
	    static createFrom(source: any = {}) {
	        return new Filter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.since = this.convertValues(source["since"], null);
	        this.until = this.convertValues(source["until"], null);
	        this.sessionId = source["sessionId"];
	        this.runId = source["runId"];
	        this.tool = source["tool"];
	        this.approval = source["approval"];
	        this.failed = source["failed"];
	        this.text = source["text"];
	        this.limit = source["limit"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace channels {
	
	export class Peer {
	    id: string;
	    name: string;
	    // Go type: time
	    since: any;
	
	    static createFrom(source: any = {}) {
	        return new Peer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.since = this.convertValues(source["since"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TelegramStatus {
	    enabled: boolean;
	    hasToken: boolean;
	    state: string;
	    bot?: string;
	    problem?: i18n.Problem;
	    code?: string;
	    // Go type: time
	    codeExpires: any;
	    paired: Peer[];
	    requests: Peer[];
	    groups: boolean;
	    notifyIn: string;
	
	    static createFrom(source: any = {}) {
	        return new TelegramStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.hasToken = source["hasToken"];
	        this.state = source["state"];
	        this.bot = source["bot"];
	        this.problem = this.convertValues(source["problem"], i18n.Problem);
	        this.code = source["code"];
	        this.codeExpires = this.convertValues(source["codeExpires"], null);
	        this.paired = this.convertValues(source["paired"], Peer);
	        this.requests = this.convertValues(source["requests"], Peer);
	        this.groups = source["groups"];
	        this.notifyIn = source["notifyIn"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    telegram: TelegramStatus;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.telegram = this.convertValues(source["telegram"], TelegramStatus);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace chat {
	
	export class PastedFile {
	    name: string;
	    data: string;
	
	    static createFrom(source: any = {}) {
	        return new PastedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.data = source["data"];
	    }
	}
	export class Input {
	    sessionId: string;
	    text: string;
	    images: string[];
	    files?: string[];
	    pasted?: PastedFile[];
	    model: string;
	    again?: boolean;
	    edit?: number;
	    resume?: boolean;
	    mode?: string;
	
	    static createFrom(source: any = {}) {
	        return new Input(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.text = source["text"];
	        this.images = source["images"];
	        this.files = source["files"];
	        this.pasted = this.convertValues(source["pasted"], PastedFile);
	        this.model = source["model"];
	        this.again = source["again"];
	        this.edit = source["edit"];
	        this.resume = source["resume"];
	        this.mode = source["mode"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Sent {
	    runId?: string;
	    pending?: session.Pending;
	
	    static createFrom(source: any = {}) {
	        return new Sent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runId = source["runId"];
	        this.pending = this.convertValues(source["pending"], session.Pending);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace config {
	
	export class Approval {
	    mode: string;
	    always: string[];
	    ask: string[];
	    never: string[];
	
	    static createFrom(source: any = {}) {
	        return new Approval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.always = source["always"];
	        this.ask = source["ask"];
	        this.never = source["never"];
	    }
	}
	export class Dream {
	    everyHours: number;
	    maxTokens: number;
	    maxMinutes: number;
	    maxToolCalls: number;
	
	    static createFrom(source: any = {}) {
	        return new Dream(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.everyHours = source["everyHours"];
	        this.maxTokens = source["maxTokens"];
	        this.maxMinutes = source["maxMinutes"];
	        this.maxToolCalls = source["maxToolCalls"];
	    }
	}
	export class MCPServer {
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    url?: string;
	    type?: string;
	    headers?: Record<string, string>;
	    enabledTools?: string[];
	    toolTimeout?: number;
	    sandbox?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.url = source["url"];
	        this.type = source["type"];
	        this.headers = source["headers"];
	        this.enabledTools = source["enabledTools"];
	        this.toolTimeout = source["toolTimeout"];
	        this.sandbox = source["sandbox"];
	    }
	}
	export class Review {
	    enabled: boolean;
	    expireHours: number;
	    onExpiry: string;
	
	    static createFrom(source: any = {}) {
	        return new Review(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.expireHours = source["expireHours"];
	        this.onExpiry = source["onExpiry"];
	    }
	}
	export class Memory {
	    dream: Dream;
	    review: Review;
	
	    static createFrom(source: any = {}) {
	        return new Memory(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dream = this.convertValues(source["dream"], Dream);
	        this.review = this.convertValues(source["review"], Review);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Problem {
	    key?: string;
	    line?: number;
	    column?: number;
	    msg: string;
	    hint?: string;
	    why?: i18n.Problem;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.line = source["line"];
	        this.column = source["column"];
	        this.msg = source["msg"];
	        this.hint = source["hint"];
	        this.why = this.convertValues(source["why"], i18n.Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace dream {
	
	export class Budget {
	    tokens: number;
	    time: number;
	    toolCalls: number;
	
	    static createFrom(source: any = {}) {
	        return new Budget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens = source["tokens"];
	        this.time = source["time"];
	        this.toolCalls = source["toolCalls"];
	    }
	}
	export class Report {
	    // Go type: time
	    started: any;
	    duration: number;
	    model: string;
	    budget: Budget;
	    tokens: number;
	    toolCalls: number;
	    noOps: number;
	    edits: number;
	    files: string[];
	    proposed?: boolean;
	    stopped?: string;
	    summary?: string;
	    skipped?: string;
	    error?: string;
	    failure?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.started = this.convertValues(source["started"], null);
	        this.duration = source["duration"];
	        this.model = source["model"];
	        this.budget = this.convertValues(source["budget"], Budget);
	        this.tokens = source["tokens"];
	        this.toolCalls = source["toolCalls"];
	        this.noOps = source["noOps"];
	        this.edits = source["edits"];
	        this.files = source["files"];
	        this.proposed = source["proposed"];
	        this.stopped = source["stopped"];
	        this.summary = source["summary"];
	        this.skipped = source["skipped"];
	        this.error = source["error"];
	        this.failure = this.convertValues(source["failure"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    paused: boolean;
	    running: boolean;
	    every: string;
	    // Go type: time
	    nextRun: any;
	    last?: Report;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paused = source["paused"];
	        this.running = source["running"];
	        this.every = source["every"];
	        this.nextRun = this.convertValues(source["nextRun"], null);
	        this.last = this.convertValues(source["last"], Report);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace egress {
	
	export class Entry {
	    // Go type: time
	    time: any;
	    host: string;
	    via?: string;
	    purpose: string;
	    local?: boolean;
	    refused?: boolean;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Entry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = this.convertValues(source["time"], null);
	        this.host = source["host"];
	        this.via = source["via"];
	        this.purpose = source["purpose"];
	        this.local = source["local"];
	        this.refused = source["refused"];
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace event {
	
	export class Line {
	    code: string;
	    args?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Line(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	    }
	}
	export class ErrorData {
	    code: string;
	    message: string;
	    hint?: string;
	    text?: Line;
	    hintText?: Line[];
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new ErrorData(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.message = source["message"];
	        this.hint = source["hint"];
	        this.text = this.convertValues(source["text"], Line);
	        this.hintText = this.convertValues(source["hintText"], Line);
	        this.detail = source["detail"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Nav {
	    kind: string;
	    sessionId?: string;
	
	    static createFrom(source: any = {}) {
	        return new Nav(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.sessionId = source["sessionId"];
	    }
	}
	export class NoticeData {
	    level: string;
	    message: string;
	    code?: string;
	    args?: Record<string, string>;
	    lists?: Record<string, Array<Line>>;
	
	    static createFrom(source: any = {}) {
	        return new NoticeData(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.level = source["level"];
	        this.message = source["message"];
	        this.code = source["code"];
	        this.args = source["args"];
	        this.lists = this.convertValues(source["lists"], Array<Line>, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UsageData {
	    promptTokens: number;
	    completionTokens: number;
	    contextUsed: number;
	    contextLimit: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageData(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.contextUsed = source["contextUsed"];
	        this.contextLimit = source["contextLimit"];
	    }
	}

}

export namespace extract {
	
	export class View {
	    name: string;
	    kind: string;
	    line: number;
	    first: number;
	    lines: string[];
	    total: number;
	    cut: number;
	
	    static createFrom(source: any = {}) {
	        return new View(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.line = source["line"];
	        this.first = source["first"];
	        this.lines = source["lines"];
	        this.total = source["total"];
	        this.cut = source["cut"];
	    }
	}

}

export namespace fitness {
	
	export class ProbeResult {
	    probe: string;
	    outcome: string;
	    reply?: string;
	    tries?: number;
	
	    static createFrom(source: any = {}) {
	        return new ProbeResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.probe = source["probe"];
	        this.outcome = source["outcome"];
	        this.reply = source["reply"];
	        this.tries = source["tries"];
	    }
	}
	export class Result {
	    model: string;
	    digest?: string;
	    toolCalls: string;
	    restraint: boolean;
	    stopsAfterResult: boolean;
	    contextMax: number;
	    tokensPerSecond: number;
	    verdict: string;
	    caveats?: string[];
	    advice: string;
	    notes?: string[];
	    probes?: ProbeResult[];
	    // Go type: time
	    checkedAt: any;
	    durationMs: number;
	    version: number;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.digest = source["digest"];
	        this.toolCalls = source["toolCalls"];
	        this.restraint = source["restraint"];
	        this.stopsAfterResult = source["stopsAfterResult"];
	        this.contextMax = source["contextMax"];
	        this.tokensPerSecond = source["tokensPerSecond"];
	        this.verdict = source["verdict"];
	        this.caveats = source["caveats"];
	        this.advice = source["advice"];
	        this.notes = source["notes"];
	        this.probes = this.convertValues(source["probes"], ProbeResult);
	        this.checkedAt = this.convertValues(source["checkedAt"], null);
	        this.durationMs = source["durationMs"];
	        this.version = source["version"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace i18n {
	
	export class Message {
	    code: string;
	    args?: Record<string, string>;
	    lists?: Record<string, Array<{code: string; args?: Record<string, string>}>>;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	        this.lists = source["lists"];
	    }
	}
	export class Problem {
	    text: Message;
	    hint?: Message[];
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = this.convertValues(source["text"], Message);
	        this.hint = this.convertValues(source["hint"], Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace knowledge {
	
	export class Status {
	    id: string;
	    path: string;
	    name: string;
	    mode: string;
	    added: string;
	    files: number;
	    skipped: number;
	    reasons: Record<string, number>;
	    updating: boolean;
	    indexed: string;
	    lastChange: string;
	    watch: string;
	    problem?: i18n.Message;
	    writable: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.path = source["path"];
	        this.name = source["name"];
	        this.mode = source["mode"];
	        this.added = source["added"];
	        this.files = source["files"];
	        this.skipped = source["skipped"];
	        this.reasons = source["reasons"];
	        this.updating = source["updating"];
	        this.indexed = source["indexed"];
	        this.lastChange = source["lastChange"];
	        this.watch = source["watch"];
	        this.problem = this.convertValues(source["problem"], i18n.Message);
	        this.writable = source["writable"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace llm {
	
	export class Attachment {
	    name: string;
	    kind?: string;
	    bytes: number;
	    pages?: number;
	    file?: string;
	    mode: string;
	    passages?: number;
	    error?: string;
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.bytes = source["bytes"];
	        this.pages = source["pages"];
	        this.file = source["file"];
	        this.mode = source["mode"];
	        this.passages = source["passages"];
	        this.error = source["error"];
	        this.detail = source["detail"];
	    }
	}
	export class Usage {
	    promptTokens: number;
	    completionTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	    }
	}

}

export namespace memory {
	
	export class Conflict {
	    mine: string;
	    theirs: string;
	    theirsHash: string;
	
	    static createFrom(source: any = {}) {
	        return new Conflict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mine = source["mine"];
	        this.theirs = source["theirs"];
	        this.theirsHash = source["theirsHash"];
	    }
	}
	export class File {
	    path: string;
	    content: string;
	    hash: string;
	    // Go type: time
	    modTime: any;
	    exists: boolean;
	
	    static createFrom(source: any = {}) {
	        return new File(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.content = source["content"];
	        this.hash = source["hash"];
	        this.modTime = this.convertValues(source["modTime"], null);
	        this.exists = source["exists"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileInfo {
	    name: string;
	    path: string;
	    kind: string;
	    size: number;
	    // Go type: time
	    modTime: any;
	    hash: string;
	
	    static createFrom(source: any = {}) {
	        return new FileInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.kind = source["kind"];
	        this.size = source["size"];
	        this.modTime = this.convertValues(source["modTime"], null);
	        this.hash = source["hash"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Hunk {
	    id: number;
	    oldStart: number;
	    old: string[];
	    new: string[];
	    before?: string;
	    status: string;
	    error?: string;
	    failure?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Hunk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.oldStart = source["oldStart"];
	        this.old = source["old"];
	        this.new = source["new"];
	        this.before = source["before"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.failure = this.convertValues(source["failure"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Proposal {
	    id: string;
	    file: string;
	    author: string;
	    reason: string;
	    // Go type: time
	    created: any;
	    hunks: Hunk[];
	
	    static createFrom(source: any = {}) {
	        return new Proposal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.file = source["file"];
	        this.author = source["author"];
	        this.reason = source["reason"];
	        this.created = this.convertValues(source["created"], null);
	        this.hunks = this.convertValues(source["hunks"], Hunk);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ReviewSettings {
	    enabled: boolean;
	    expireHours: number;
	    onExpiry: string;
	
	    static createFrom(source: any = {}) {
	        return new ReviewSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.expireHours = source["expireHours"];
	        this.onExpiry = source["onExpiry"];
	    }
	}
	export class SaveResult {
	    saved: boolean;
	    proposed?: boolean;
	    hash: string;
	    conflict?: Conflict;
	
	    static createFrom(source: any = {}) {
	        return new SaveResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.saved = source["saved"];
	        this.proposed = source["proposed"];
	        this.hash = source["hash"];
	        this.conflict = this.convertValues(source["conflict"], Conflict);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace memrepo {
	
	export class Rev {
	    rev: string;
	    // Go type: time
	    time: any;
	    author: string;
	    message: string;
	    files: string[];
	
	    static createFrom(source: any = {}) {
	        return new Rev(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rev = source["rev"];
	        this.time = this.convertValues(source["time"], null);
	        this.author = source["author"];
	        this.message = source["message"];
	        this.files = source["files"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace models {
	
	export class FirstRun {
	    ollamaHost: string;
	    ollamaRunning: boolean;
	    ollamaInstalled: boolean;
	    ollamaError: string;
	    models: string[];
	    chatModels: string[];
	    modelInstalled: boolean;
	    model: string;
	    suggestedModel: string;
	    workspace: string;
	
	    static createFrom(source: any = {}) {
	        return new FirstRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ollamaHost = source["ollamaHost"];
	        this.ollamaRunning = source["ollamaRunning"];
	        this.ollamaInstalled = source["ollamaInstalled"];
	        this.ollamaError = source["ollamaError"];
	        this.models = source["models"];
	        this.chatModels = source["chatModels"];
	        this.modelInstalled = source["modelInstalled"];
	        this.model = source["model"];
	        this.suggestedModel = source["suggestedModel"];
	        this.workspace = source["workspace"];
	    }
	}
	export class ModelEntry {
	    name: string;
	    size: number;
	    family: string;
	    parameterSize: string;
	    quantization: string;
	    contextLength: number;
	    capabilities: string[];
	    fitness?: fitness.Result;
	    toolsAnyway: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ModelEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.size = source["size"];
	        this.family = source["family"];
	        this.parameterSize = source["parameterSize"];
	        this.quantization = source["quantization"];
	        this.contextLength = source["contextLength"];
	        this.capabilities = source["capabilities"];
	        this.fitness = this.convertValues(source["fitness"], fitness.Result);
	        this.toolsAnyway = source["toolsAnyway"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace reach {
	
	export class MCPServerView {
	    name: string;
	    config: config.MCPServer;
	    transport: string;
	    connected: boolean;
	    tools: number;
	    toolNames: string[];
	    lastError: string;
	    since: string;
	    serverName: string;
	    serverVersion: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.config = this.convertValues(source["config"], config.MCPServer);
	        this.transport = source["transport"];
	        this.connected = source["connected"];
	        this.tools = source["tools"];
	        this.toolNames = source["toolNames"];
	        this.lastError = source["lastError"];
	        this.since = source["since"];
	        this.serverName = source["serverName"];
	        this.serverVersion = source["serverVersion"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPTestView {
	    transport: string;
	    serverName: string;
	    serverVersion: string;
	    tools: string[];
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new MCPTestView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.transport = source["transport"];
	        this.serverName = source["serverName"];
	        this.serverVersion = source["serverVersion"];
	        this.tools = source["tools"];
	        this.durationMs = source["durationMs"];
	    }
	}

}

export namespace recall {
	
	export class Hit {
	    id: string;
	    source: string;
	    title: string;
	    date: string;
	    snippet: string;
	    score: number;
	    mode: string;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.source = source["source"];
	        this.title = source["title"];
	        this.date = source["date"];
	        this.snippet = source["snippet"];
	        this.score = source["score"];
	        this.mode = source["mode"];
	    }
	}
	export class Results {
	    hits: Hit[];
	    mode: string;
	    note?: string;
	    more?: number;
	
	    static createFrom(source: any = {}) {
	        return new Results(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hits = this.convertValues(source["hits"], Hit);
	        this.mode = source["mode"];
	        this.note = source["note"];
	        this.more = source["more"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace reminders {
	
	export class BackgroundSettings {
	    heartbeatEnabled: boolean;
	    heartbeatMinutes: number;
	    missedRuns: string;
	    closeToTray: boolean;
	    launchAtLogin: boolean;
	    remindersPaused: boolean;
	
	    static createFrom(source: any = {}) {
	        return new BackgroundSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.heartbeatEnabled = source["heartbeatEnabled"];
	        this.heartbeatMinutes = source["heartbeatMinutes"];
	        this.missedRuns = source["missedRuns"];
	        this.closeToTray = source["closeToTray"];
	        this.launchAtLogin = source["launchAtLogin"];
	        this.remindersPaused = source["remindersPaused"];
	    }
	}
	export class Notice {
	    id: string;
	    kind: string;
	    // Go type: time
	    at: any;
	    text?: string;
	    code?: string;
	    args?: Record<string, string>;
	    jobId?: string;
	    title?: string;
	    sessionId?: string;
	    // Go type: time
	    due: any;
	    outcome?: string;
	    // Go type: time
	    ranAt: any;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Notice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.at = this.convertValues(source["at"], null);
	        this.text = source["text"];
	        this.code = source["code"];
	        this.args = source["args"];
	        this.jobId = source["jobId"];
	        this.title = source["title"];
	        this.sessionId = source["sessionId"];
	        this.due = this.convertValues(source["due"], null);
	        this.outcome = source["outcome"];
	        this.ranAt = this.convertValues(source["ranAt"], null);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace sandbox {
	
	export class Status {
	    mode: string;
	    landlockABI: number;
	    namespaces: boolean;
	    userNamespace?: boolean;
	    bubblewrap?: string;
	    summary: string;
	    summaryMessage?: i18n.Message;
	    warning?: string;
	    warningMessage?: i18n.Message;
	    hint?: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.landlockABI = source["landlockABI"];
	        this.namespaces = source["namespaces"];
	        this.userNamespace = source["userNamespace"];
	        this.bubblewrap = source["bubblewrap"];
	        this.summary = source["summary"];
	        this.summaryMessage = source["summaryMessage"];
	        this.warning = source["warning"];
	        this.warningMessage = source["warningMessage"];
	        this.hint = source["hint"];
	    }
	}

}

export namespace schedule {
	
	export class RunRecord {
	    // Go type: time
	    at: any;
	    status: string;
	    error?: string;
	    runId?: string;
	    durationMs?: number;
	    // Go type: time
	    due: any;
	
	    static createFrom(source: any = {}) {
	        return new RunRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = this.convertValues(source["at"], null);
	        this.status = source["status"];
	        this.error = source["error"];
	        this.runId = source["runId"];
	        this.durationMs = source["durationMs"];
	        this.due = this.convertValues(source["due"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Schedule {
	    kind: string;
	    // Go type: time
	    at: any;
	    everySeconds?: number;
	    expr?: string;
	    tz?: string;
	
	    static createFrom(source: any = {}) {
	        return new Schedule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.at = this.convertValues(source["at"], null);
	        this.everySeconds = source["everySeconds"];
	        this.expr = source["expr"];
	        this.tz = source["tz"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Job {
	    id: string;
	    name: string;
	    message: string;
	    schedule: Schedule;
	    sessionId?: string;
	    allowTools?: string[];
	    missedRuns?: string;
	    notifyIn?: string;
	    notifyChat?: string;
	    paused?: boolean;
	    // Go type: time
	    created: any;
	    done?: boolean;
	    // Go type: time
	    nextRun: any;
	    // Go type: time
	    lastRun: any;
	    lastStatus?: string;
	    lastError?: string;
	    history?: RunRecord[];
	    description?: string;
	
	    static createFrom(source: any = {}) {
	        return new Job(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.message = source["message"];
	        this.schedule = this.convertValues(source["schedule"], Schedule);
	        this.sessionId = source["sessionId"];
	        this.allowTools = source["allowTools"];
	        this.missedRuns = source["missedRuns"];
	        this.notifyIn = source["notifyIn"];
	        this.notifyChat = source["notifyChat"];
	        this.paused = source["paused"];
	        this.created = this.convertValues(source["created"], null);
	        this.done = source["done"];
	        this.nextRun = this.convertValues(source["nextRun"], null);
	        this.lastRun = this.convertValues(source["lastRun"], null);
	        this.lastStatus = source["lastStatus"];
	        this.lastError = source["lastError"];
	        this.history = this.convertValues(source["history"], RunRecord);
	        this.description = source["description"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class JobProblem {
	    index: number;
	    id?: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new JobProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.id = source["id"];
	        this.error = source["error"];
	    }
	}
	export class JobSpec {
	    name: string;
	    message: string;
	    schedule: Schedule;
	    sessionId?: string;
	    allowTools?: string[];
	    missedRuns?: string;
	    notifyIn?: string;
	    notifyChat?: string;
	
	    static createFrom(source: any = {}) {
	        return new JobSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.message = source["message"];
	        this.schedule = this.convertValues(source["schedule"], Schedule);
	        this.sessionId = source["sessionId"];
	        this.allowTools = source["allowTools"];
	        this.missedRuns = source["missedRuns"];
	        this.notifyIn = source["notifyIn"];
	        this.notifyChat = source["notifyChat"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace session {
	
	export class Pending {
	    id: string;
	    mode: string;
	    text: string;
	    at: string;
	    channel?: string;
	    held?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Pending(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.mode = source["mode"];
	        this.text = source["text"];
	        this.at = source["at"];
	        this.channel = source["channel"];
	        this.held = source["held"];
	    }
	}
	export class Run {
	    runId: string;
	    status: string;
	    final: string;
	    error?: string;
	    model?: string;
	    usage: llm.Usage;
	    durationMs: number;
	    // Go type: time
	    at: any;
	    failure?: event.ErrorData;
	    channel?: string;
	    limit?: string;
	    notes?: event.NoticeData[];
	
	    static createFrom(source: any = {}) {
	        return new Run(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runId = source["runId"];
	        this.status = source["status"];
	        this.final = source["final"];
	        this.error = source["error"];
	        this.model = source["model"];
	        this.usage = this.convertValues(source["usage"], llm.Usage);
	        this.durationMs = source["durationMs"];
	        this.at = this.convertValues(source["at"], null);
	        this.failure = this.convertValues(source["failure"], event.ErrorData);
	        this.channel = source["channel"];
	        this.limit = source["limit"];
	        this.notes = this.convertValues(source["notes"], event.NoticeData);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Summary {
	    id: string;
	    title: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    model: string;
	    messages: number;
	    archived: boolean;
	    interrupted: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.model = source["model"];
	        this.messages = source["messages"];
	        this.archived = source["archived"];
	        this.interrupted = source["interrupted"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace sessions {
	
	export class ChatHit {
	    sessionId: string;
	    title: string;
	    index: number;
	    role?: string;
	    snippet: string;
	    start: number;
	    end: number;
	
	    static createFrom(source: any = {}) {
	        return new ChatHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.title = source["title"];
	        this.index = source["index"];
	        this.role = source["role"];
	        this.snippet = source["snippet"];
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}
	export class HistoryVersion {
	    at: number;
	    messages: HistoryMessage[];
	    runs: session.Run[];
	
	    static createFrom(source: any = {}) {
	        return new HistoryVersion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = source["at"];
	        this.messages = this.convertValues(source["messages"], HistoryMessage);
	        this.runs = this.convertValues(source["runs"], session.Run);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryCall {
	    id: string;
	    name: string;
	    arguments: string;
	
	    static createFrom(source: any = {}) {
	        return new HistoryCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	    }
	}
	export class HistoryMessage {
	    role: string;
	    content: string;
	    reasoning?: string;
	    images?: string[];
	    toolCalls?: HistoryCall[];
	    toolCallId?: string;
	    toolName?: string;
	    runId?: string;
	    attachments?: llm.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new HistoryMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.content = source["content"];
	        this.reasoning = source["reasoning"];
	        this.images = source["images"];
	        this.toolCalls = this.convertValues(source["toolCalls"], HistoryCall);
	        this.toolCallId = source["toolCallId"];
	        this.toolName = source["toolName"];
	        this.runId = source["runId"];
	        this.attachments = this.convertValues(source["attachments"], llm.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class History {
	    id: string;
	    title: string;
	    model: string;
	    messages: HistoryMessage[];
	    runs: session.Run[];
	    interrupted: string[];
	    versions: HistoryVersion[];
	
	    static createFrom(source: any = {}) {
	        return new History(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.model = source["model"];
	        this.messages = this.convertValues(source["messages"], HistoryMessage);
	        this.runs = this.convertValues(source["runs"], session.Run);
	        this.interrupted = source["interrupted"];
	        this.versions = this.convertValues(source["versions"], HistoryVersion);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	

}

export namespace settings {
	
	export class OllamaEngine {
	    startable: boolean;
	    byHearth: boolean;
	    managed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new OllamaEngine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.startable = source["startable"];
	        this.byHearth = source["byHearth"];
	        this.managed = source["managed"];
	    }
	}
	export class PlainKey {
	    provider: string;
	    key: string;
	
	    static createFrom(source: any = {}) {
	        return new PlainKey(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.key = source["key"];
	    }
	}
	export class PlainKeyReport {
	    plain: PlainKey[];
	    keyring: boolean;
	    configFile: string;
	    fileMode: string;
	    private: boolean;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new PlainKeyReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.plain = this.convertValues(source["plain"], PlainKey);
	        this.keyring = source["keyring"];
	        this.configFile = source["configFile"];
	        this.fileMode = source["fileMode"];
	        this.private = source["private"];
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderSettings {
	    name: string;
	    apiBase: string;
	    apiKey: string;
	    keySet: boolean;
	    clearKey: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.apiBase = source["apiBase"];
	        this.apiKey = source["apiKey"];
	        this.keySet = source["keySet"];
	        this.clearKey = source["clearKey"];
	    }
	}
	export class SaveResult {
	    saved: boolean;
	    problems: config.Problem[];
	    notice?: string;
	
	    static createFrom(source: any = {}) {
	        return new SaveResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.saved = source["saved"];
	        this.problems = this.convertValues(source["problems"], config.Problem);
	        this.notice = source["notice"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Settings {
	    ollamaHost: string;
	    ollamaStart: string;
	    ollamaKeepRunning: boolean;
	    openai: ProviderSettings;
	    custom: ProviderSettings[];
	    model: string;
	    embeddingModel: string;
	    fallbacks: string[];
	    contextTokens: number;
	    maxTokens: number;
	    temperature: number;
	    maxToolIterations: number;
	    maxTurnMinutes: number;
	    execEnabled: boolean;
	    webOffline: boolean;
	    localOnly: boolean;
	    workspace: string;
	    restrictToWorkspace: boolean;
	    allowedPaths: string[];
	    theme: string;
	    language: string;
	    sendDuringRun: string;
	    systemLanguage: string;
	    memoryWindow: number;
	    idleCompactMinutes: number;
	    recallEnabled: boolean;
	    memory: config.Memory;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ollamaHost = source["ollamaHost"];
	        this.ollamaStart = source["ollamaStart"];
	        this.ollamaKeepRunning = source["ollamaKeepRunning"];
	        this.openai = this.convertValues(source["openai"], ProviderSettings);
	        this.custom = this.convertValues(source["custom"], ProviderSettings);
	        this.model = source["model"];
	        this.embeddingModel = source["embeddingModel"];
	        this.fallbacks = source["fallbacks"];
	        this.contextTokens = source["contextTokens"];
	        this.maxTokens = source["maxTokens"];
	        this.temperature = source["temperature"];
	        this.maxToolIterations = source["maxToolIterations"];
	        this.maxTurnMinutes = source["maxTurnMinutes"];
	        this.execEnabled = source["execEnabled"];
	        this.webOffline = source["webOffline"];
	        this.localOnly = source["localOnly"];
	        this.workspace = source["workspace"];
	        this.restrictToWorkspace = source["restrictToWorkspace"];
	        this.allowedPaths = source["allowedPaths"];
	        this.theme = source["theme"];
	        this.language = source["language"];
	        this.sendDuringRun = source["sendDuringRun"];
	        this.systemLanguage = source["systemLanguage"];
	        this.memoryWindow = source["memoryWindow"];
	        this.idleCompactMinutes = source["idleCompactMinutes"];
	        this.recallEnabled = source["recallEnabled"];
	        this.memory = this.convertValues(source["memory"], config.Memory);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    configFile: string;
	    configError: string;
	    configProblems?: config.Problem[];
	    configWarnings: config.Problem[];
	    workspace: string;
	    workspaceError: string;
	    dataDir: string;
	    memoryStateDir: string;
	    stateMoved?: workspace.Moved;
	    stateDir: string;
	    model: string;
	    modelProvider: string;
	    modelConfigured: boolean;
	    modelProblem: string;
	    ollamaHost: string;
	    ollamaReachable: boolean;
	    ollamaVersion: string;
	    ollamaError: string;
	    ollamaEngine: OllamaEngine;
	    version: string;
	    embeddingModel: string;
	    recall: string;
	    recallNote?: string;
	    recallWhy?: i18n.Message;
	    apiKeys?: PlainKeyReport;
	    sandbox: sandbox.Status;
	    localOnly: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configFile = source["configFile"];
	        this.configError = source["configError"];
	        this.configProblems = this.convertValues(source["configProblems"], config.Problem);
	        this.configWarnings = this.convertValues(source["configWarnings"], config.Problem);
	        this.workspace = source["workspace"];
	        this.workspaceError = source["workspaceError"];
	        this.dataDir = source["dataDir"];
	        this.memoryStateDir = source["memoryStateDir"];
	        this.stateMoved = this.convertValues(source["stateMoved"], workspace.Moved);
	        this.stateDir = source["stateDir"];
	        this.model = source["model"];
	        this.modelProvider = source["modelProvider"];
	        this.modelConfigured = source["modelConfigured"];
	        this.modelProblem = source["modelProblem"];
	        this.ollamaHost = source["ollamaHost"];
	        this.ollamaReachable = source["ollamaReachable"];
	        this.ollamaVersion = source["ollamaVersion"];
	        this.ollamaError = source["ollamaError"];
	        this.ollamaEngine = this.convertValues(source["ollamaEngine"], OllamaEngine);
	        this.version = source["version"];
	        this.embeddingModel = source["embeddingModel"];
	        this.recall = source["recall"];
	        this.recallNote = source["recallNote"];
	        this.recallWhy = this.convertValues(source["recallWhy"], i18n.Message);
	        this.apiKeys = this.convertValues(source["apiKeys"], PlainKeyReport);
	        this.sandbox = this.convertValues(source["sandbox"], sandbox.Status);
	        this.localOnly = source["localOnly"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace skills {
	
	export class Skill {
	    name: string;
	    description: string;
	    source: string;
	    always: boolean;
	    bins?: string[];
	    env?: string[];
	    available: boolean;
	    missingBins?: string[];
	    missingEnv?: string[];
	    enabled: boolean;
	    path: string;
	    location: string;
	    problem?: string;
	
	    static createFrom(source: any = {}) {
	        return new Skill(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.source = source["source"];
	        this.always = source["always"];
	        this.bins = source["bins"];
	        this.env = source["env"];
	        this.available = source["available"];
	        this.missingBins = source["missingBins"];
	        this.missingEnv = source["missingEnv"];
	        this.enabled = source["enabled"];
	        this.path = source["path"];
	        this.location = source["location"];
	        this.problem = source["problem"];
	    }
	}

}

export namespace workspace {
	
	export class Moved {
	    from: string;
	    // Go type: time
	    when: any;
	    items?: string[];
	    refused?: string[];
	    skipped?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Moved(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.when = this.convertValues(source["when"], null);
	        this.items = source["items"];
	        this.refused = source["refused"];
	        this.skipped = source["skipped"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

