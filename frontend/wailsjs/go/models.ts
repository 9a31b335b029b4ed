export namespace core {
	
	export class Status {
	    version: string;
	    configFile: string;
	    configError: string;
	    configWarnings: string[];
	    workspace: string;
	    dataDir: string;
	    stateDir: string;
	    model: string;
	    modelProvider: string;
	    modelConfigured: boolean;
	    ollamaHost: string;
	    ollamaReachable: boolean;
	    ollamaVersion: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.configFile = source["configFile"];
	        this.configError = source["configError"];
	        this.configWarnings = source["configWarnings"];
	        this.workspace = source["workspace"];
	        this.dataDir = source["dataDir"];
	        this.stateDir = source["stateDir"];
	        this.model = source["model"];
	        this.modelProvider = source["modelProvider"];
	        this.modelConfigured = source["modelConfigured"];
	        this.ollamaHost = source["ollamaHost"];
	        this.ollamaReachable = source["ollamaReachable"];
	        this.ollamaVersion = source["ollamaVersion"];
	    }
	}

}

