/**
 * A CSV file of `rows` events in the plugin's columns: 40 venues, 25 organizers, 12 categories and 7 tags reused by
 * name, a cost, two-hour events spread over 700 days.
 */
export function benchCsv(rows: number): Buffer {
  const lines = [
    'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Venue Name,Event Organizer Name,Event Cost,Event Category,Event Tags',
  ];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2026, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
    const hour = 8 + (i % 12);
    lines.push(
      `Event ${i},"A description of event ${i}, with a comma",${day},${hour}:00,${day},${hour + 2}:30,Venue ${i % 40},Organizer ${i % 25},${5 + (i % 20)},Category ${i % 12},"tag${i % 7}, tag${i % 5}"`,
    );
  }
  return Buffer.from(lines.join('\n'));
}
