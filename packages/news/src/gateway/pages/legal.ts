import type { GatewayConfig, OperatorDetails } from '../config/index.ts';
import { esc, page } from './html.ts';

const notConfigured = `<p><strong>Development instance.</strong> The operator details are not configured
(GATEWAY_OPERATOR_NAME, GATEWAY_OPERATOR_ADDRESS, GATEWAY_OPERATOR_EMAIL); this instance must not be offered to the public.
A production gateway refuses to start without them.</p>`;

function contact(o: OperatorDetails): string {
  const optional: [string, string | null][] = [
    ['Vertreten durch / Represented by', o.representative],
    ['Telefon / Phone', o.phone],
    ['Registereintrag / Register', o.register],
    ['USt-IdNr. / VAT ID', o.vatId],
    ['Inhaltlich verantwortlich / Responsible for content', o.contentResponsible],
  ];
  return `<p>${esc(o.name)}<br>${o.address.map(esc).join('<br>')}</p>
<p>E-Mail: <a href="mailto:${esc(o.email)}">${esc(o.email)}</a></p>
${optional
  .filter(([, v]) => v !== null)
  .map(([k, v]) => `<p>${esc(k)}: ${esc(v ?? '')}</p>`)
  .join('\n')}`;
}

/** GET /impressum: provider identification from the operator settings. */
export function renderImpressum(config: GatewayConfig): string {
  const o = config.operator;
  return page(
    'Impressum',
    `<h1>Impressum</h1>
<h2>Angaben zum Diensteanbieter / Service provider</h2>
${o === null ? notConfigured : contact(o)}`,
    'de',
  );
}

/** GET /datenschutz: what this service actually stores. Keep in step with the gateway's request logging. */
export function renderDatenschutz(config: GatewayConfig): string {
  const o = config.operator;
  const retention = o?.logRetention ?? null;
  return page(
    'Datenschutz',
    `<h1>Datenschutzerklärung / Privacy</h1>
<h2>Verantwortlicher / Controller</h2>
${o === null ? notConfigured : contact(o)}
<h2>Was dieser Dienst speichert / What this service stores</h2>
<ul>
<li>Für jede Anfrage schreibt der Dienst eine Protokollzeile: Zeitpunkt, HTTP-Methode, Pfad, Statuscode und Bearbeitungszeit.
Er protokolliert <strong>keine</strong> IP-Adressen, keine Suchanfragen oder andere Inhalte von Anfragen und keine Browserkennungen.<br>
For each request the service writes one log line: time, HTTP method, path, status code and processing time. It does
<strong>not</strong> log IP addresses, search phrases or any other request content, or browser identifiers.</li>
<li>Speicherdauer der Protokolle / Log retention: ${
      retention === null
        ? 'vom Betreiber nicht angegeben / not stated by the operator (GATEWAY_LOG_RETENTION).'
        : esc(retention)
    }</li>
<li>Der Dienst setzt keine Cookies, verwendet keinen lokalen Browserspeicher für Tracking und bindet keine Inhalte Dritter ein.<br>
The service sets no cookies, uses no browser storage for tracking and embeds no third-party content.</li>
<li>Suchanfragen werden nur zur Beantwortung verarbeitet und nicht gespeichert.<br>
Search requests are processed only to answer them and are not stored.</li>
</ul>
<h2>Externe Datensätze / External datasets</h2>
<p>Die Suche und das Lesen von Artikeln laufen vollständig auf diesem Server. Das optionale Python-Beispiel in
<code>/api/v1/info</code> lädt, wenn Sie es selbst ausführen, Daten vom Dataset-Hub${config.hub.repo === null ? '' : ` (${esc(config.hub.endpoint)})`};
dafür gelten dessen Datenschutzbestimmungen.<br>
Search and article reading run entirely on this server. The optional Python example in <code>/api/v1/info</code>, if you run it
yourself, downloads from the dataset hub, whose privacy terms then apply.</p>
<h2>Ihre Rechte / Your rights</h2>
<p>Sie haben nach der DSGVO das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Widerspruch
und Beschwerde bei einer Aufsichtsbehörde. Da keine personenbezogenen Daten gespeichert werden, liegen in der Regel keine Daten zu Ihrer Person vor.</p>`,
    'de',
  );
}
