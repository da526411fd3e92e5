// The few autocannon types this benchmark uses (the package ships no declarations; @types/autocannon is not needed
// for one script).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface RequestSpec extends Request {
      setupRequest?: (req: Request) => Request;
    }
    interface Options {
      url: string;
      duration?: number;
      connections?: number;
      requests?: RequestSpec[];
      headers?: Record<string, string>;
    }
    interface Result {
      latency: { p50: number; p99: number };
      requests: { average: number; total: number };
      errors: number;
      non2xx: number;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
