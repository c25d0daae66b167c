import { DurableObject } from 'cloudflare:workers'
export class RequestObject extends DurableObject {}
