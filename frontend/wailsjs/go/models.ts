export namespace core {
	
	export class Status {
	    configFile: string;
	    configError: string;
	    configWarnings: string[];
	    workspace: string;
	    workspaceError: string;
	    dataDir: string;
	    stateDir: string;
	    model: string;
	    modelProvider: string;
	    modelConfigured: boolean;
	    modelProblem: string;
	    ollamaHost: string;
	    ollamaReachable: boolean;
	    ollamaVersion: string;
	    ollamaError: string;
	    version: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configFile = source["configFile"];
	        this.configError = source["configError"];
	        this.configWarnings = source["configWarnings"];
	        this.workspace = source["workspace"];
	        this.workspaceError = source["workspaceError"];
	        this.dataDir = source["dataDir"];
	        this.stateDir = source["stateDir"];
	        this.model = source["model"];
	        this.modelProvider = source["modelProvider"];
	        this.modelConfigured = source["modelConfigured"];
	        this.modelProblem = source["modelProblem"];
	        this.ollamaHost = source["ollamaHost"];
	        this.ollamaReachable = source["ollamaReachable"];
	        this.ollamaVersion = source["ollamaVersion"];
	        this.ollamaError = source["ollamaError"];
	        this.version = source["version"];
	    }
	}

}

