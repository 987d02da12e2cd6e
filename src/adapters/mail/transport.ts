// Outgoing mail: one interface, an SMTP transport (nodemailer) when the server has an SMTP URL,
// and otherwise an outbox folder on disk plus a log line, so development needs no mail server.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import { type Config, externalUrl } from '../../config.js';
import type { Services } from '../../services.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML, for mail readers that show it; the text is always sent too. */
  html?: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/** The sender address: the configured one, else noreply@ the server's host. */
export function senderAddress(config: Config): string {
  if (config.mailFrom) return config.mailFrom;
  let host = 'localhost';
  try {
    host = new URL(externalUrl(config)).hostname || host;
  } catch {
    // An unparsable external URL keeps the fallback host.
  }
  return `noreply@${host}`;
}

export class SmtpTransport implements MailTransport {
  private readonly transporter: Nodemailer.Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    // Loaded only by servers that send mail over SMTP: it is a few MB in memory.
    const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
    this.transporter = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({ from: this.from, ...message });
  }
}

/** Writes each message as an .eml file into a folder and reports it through `log`. */
export class OutboxTransport implements MailTransport {
  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
    const headers = [`From: ${this.from}`, `To: ${message.to}`, `Subject: ${message.subject}`];
    let body = message.text;
    if (message.html === undefined) {
      headers.push('Content-Type: text/plain; charset=utf-8');
    } else {
      const boundary = `confab-${randomBytes(12).toString('hex')}`;
      headers.push('MIME-Version: 1.0', `Content-Type: multipart/alternative; boundary="${boundary}"`);
      const part = (type: string, content: string) => `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\n\r\n${content}\r\n`;
      body = `${part('text/plain', message.text)}${part('text/html', message.html)}--${boundary}--\r\n`;
    }
    const path = join(this.dir, name);
    await writeFile(path, `${headers.join('\r\n')}\r\n\r\n${body}`);
    this.log(`mail to ${message.to} ("${message.subject}") written to ${path}`);
  }
}

const transports = new WeakMap<Services, MailTransport>();

/** The services' mail transport, made from the configuration on first use. */
export function mailTransportFor(services: Services): MailTransport {
  let transport = transports.get(services);
  if (!transport) {
    const { config } = services;
    const from = senderAddress(config);
    transport = config.smtpUrl
      ? new SmtpTransport(config.smtpUrl, from)
      : new OutboxTransport(resolve(config.mailOutboxDir ?? join(config.dataDir, 'outbox')), from, (line) => services.log?.info(line));
    transports.set(services, transport);
  }
  return transport;
}

/** Replaces the transport (tests capture mail this way). */
export function setMailTransport(services: Services, transport: MailTransport): void {
  transports.set(services, transport);
}
